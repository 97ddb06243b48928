#!/bin/sh
# CI job: install, lint, format check, tests, type check; every step runs, the job fails if any did.
failed=0
step() {
  echo "==> $*"
  "$@" || { echo "==> FAILED ($?): $*"; failed=$((failed + 1)); }
}
step npm ci --no-audit --no-fund
step npm run check:lint
step npm run check:format
step node --test --test-reporter=spec
step npm run check:type
echo "==> $failed step(s) failed"
[ "$failed" -eq 0 ]
