#!/usr/bin/env node
// `ctxwrap search` has a bundle of its own (see src/main.ts); everything else starts in ctxwrap.cjs.
const a = process.argv;
const search = a[2] === 'search' || (a[2] === '--run-dir' && a[4] === 'search');
require(search ? '../dist/search.cjs' : '../dist/ctxwrap.cjs').main();
