#!/bin/sh
# Serve the docs with nginx in the foreground and replay a crawl of the site
# against it; everything nginx prints (access log on stdout, error log on
# stderr) is the output.
NGINX=${NGINX:-../ngx/objs/nginx}
# through a pipe: nginx reopens /dev/stdout for the access log, which must
# not clobber the error log written to the same file
( $NGINX -p "$PWD" -c conf/nginx.conf 2>&1 | cat ) &
sleep 1
n=0
find site -name '*.html' | LC_ALL=C sort | sed 's|^site||' | while read -r page; do
    n=$((n + 1))
    curl -s -o /dev/null -A 'docs-crawler/1.0' -e "http://127.0.0.1:18080/index.html" "http://127.0.0.1:18080$page"
    curl -s -o /dev/null -A 'docs-crawler/1.0' -e "http://127.0.0.1:18080$page" "http://127.0.0.1:18080/favicon.ico"
    if [ "$n" = 150 ]; then
        curl -s -o /dev/null -A 'docs-search/1.0' "http://127.0.0.1:18080/api/search?q=Converter"
    fi
done
curl -s -o /dev/null -A 'docs-crawler/1.0' "http://127.0.0.1:18080/assets/style.css"
curl -s -o /dev/null -A 'docs-crawler/1.0' "http://127.0.0.1:18080/assets/search.js"
$NGINX -p "$PWD" -c conf/nginx.conf -s quit
wait
