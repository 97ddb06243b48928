#!/bin/sh
':' //; [ -n "${NODE_EXTRA_CA_CERTS+x}" ] && export CTXWRAP_SAVED_NODE_EXTRA_CA_CERTS="$NODE_EXTRA_CA_CERTS" && unset NODE_EXTRA_CA_CERTS
':' //; exec node "$0" "$@"
// The file is read twice: by sh (the two lines above, a no-op for JavaScript), then by node.
// On Node 20, NODE_EXTRA_CA_CERTS makes node parse the CA bundle before its first line (about
// 60 ms of a 90 ms start); ctxwrap makes no TLS connection, so its own node starts without the
// variable and puts it back at once: the wrapped command gets the environment as it was.
const saved = process.env.CTXWRAP_SAVED_NODE_EXTRA_CA_CERTS;
if (saved !== undefined) {
  process.env.NODE_EXTRA_CA_CERTS = saved;
  delete process.env.CTXWRAP_SAVED_NODE_EXTRA_CA_CERTS;
}
// `ctxwrap search` has a bundle of its own (see src/main.ts); everything else starts in ctxwrap.cjs.
const a = process.argv;
const search = a[2] === 'search' || (a[2] === '--run-dir' && a[4] === 'search');
// search.cjs starts from its code cache when the build made one (src/code-cache.ts).
if (search) require('../dist/code-cache.cjs').loadBundle(require('node:path').join(__dirname, '..', 'dist', 'search.cjs')).exports.main();
else require('../dist/ctxwrap.cjs').main();
