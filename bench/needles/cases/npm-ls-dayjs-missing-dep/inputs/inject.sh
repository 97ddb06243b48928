#!/bin/sh
# the injected fault: one installed dev dependency removed from node_modules (as a botched manual cleanup would)
mv node_modules/karma-sauce-launcher /tmp/corpus-js/ksl-aside
npm ls --all
