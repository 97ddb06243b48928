#!/usr/bin/env node
require('../dist/ctxwrap.cjs').main();
