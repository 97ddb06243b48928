rc=0; for t in bin/*-test; do "$t" || rc=1; done; exit $rc
