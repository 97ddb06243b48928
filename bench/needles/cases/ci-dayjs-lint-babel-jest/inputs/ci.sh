#!/bin/sh
# CI job: lint, build the ESM copy with babel, unit tests; every step runs, the job fails if any did.
failed=0
step() {
  echo "==> $*"
  "$@" || { echo "==> FAILED ($?): $*"; failed=$((failed + 1)); }
}
step npm run lint
step npm run babel
step npx jest
echo "==> $failed step(s) failed"
[ "$failed" -eq 0 ]
