<?php
// Offline stand-in for Composer's autoloader: the component's PSR-4 root and Debian's packaged deps.
require_once '/usr/share/php/Symfony/Polyfill/Ctype/autoload.php';
require_once '/usr/share/php/Symfony/Contracts/Deprecation/autoload.php';
require_once '/usr/share/php/Symfony/Bridge/PhpUnit/autoload.php';
spl_autoload_register(function ($class) {
    $prefix = 'Symfony\\Component\\Yaml\\';
    if (strncmp($class, $prefix, strlen($prefix)) === 0) {
        $file = dirname(__DIR__).'/'.str_replace('\\', '/', substr($class, strlen($prefix))).'.php';
        if (is_file($file)) { require $file; }
    }
});
