# The fault: a one-line schema change made between pgbench's initialisation and its run
# (run.sh line 8): a floor on the branch balance, which TPC-B's random deposits and
# withdrawals cross after a few hundred transactions on the single branch of scale 1.
psql -h "$D" -p 5499 -d postgres -c 'ALTER TABLE pgbench_branches ADD CONSTRAINT bbalance_floor CHECK (bbalance > -100000)'
