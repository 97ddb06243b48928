set -u
D=$1
B=/usr/lib/postgresql/15/bin
$B/postgres -D $D/data -p 5499 -k $D -c listen_addresses='' -c log_line_prefix='%m [%p] %q%u@%d ' -c log_statement=mod -c log_connections=on -c log_disconnections=on -c log_checkpoints=on -c log_lock_waits=on -c log_autovacuum_min_duration=0 > $D/server.txt 2>&1 &
PGPID=$!
sleep 3
$B/pgbench -h $D -p 5499 -i -s 1 postgres > $D/init.txt 2>&1
$B/psql -h $D -p 5499 -d postgres -c 'ALTER TABLE pgbench_branches ADD CONSTRAINT bbalance_floor CHECK (bbalance > -100000)' > $D/alter.txt 2>&1
$B/pgbench -h $D -p 5499 -c 4 -j 2 -T 40 -R 40 -P 5 postgres > $D/bench.txt 2>&1
echo "pgbench exit $?" >> $D/bench.txt
$B/pg_ctl -D $D/data stop -m fast > $D/stop.txt 2>&1
wait $PGPID
echo "postgres exit $?" > $D/server.rc
