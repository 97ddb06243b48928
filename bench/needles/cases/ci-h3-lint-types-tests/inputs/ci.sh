#!/bin/sh
# CI job: lint (eslint + prettier), type check, unit tests; every step runs, the job fails if any did.
failed=0
step() {
  echo "==> $*"
  "$@" || { echo "==> FAILED ($?): $*"; failed=$((failed + 1)); }
}
step npm run lint
step npm run test:types
step npx vitest run --typecheck.enabled=false
echo "==> $failed step(s) failed"
[ "$failed" -eq 0 ]
