#!/bin/sh
# A Redis master and a replica (both loglevel verbose, logging to stdout); a writer fills the master,
# a reader polls the replica with one redis-cli connection per read. The fault: halfway through,
# the master's password is rotated (CONFIG SET requirepass) and the replica's link is killed, as a
# credentials rotation that forgot the replica's masterauth. The replica's log is the case.
cd "$(dirname "$0")"
redis-server master.conf > master.log 2>&1 & M=$!
sleep 1
redis-server replica.conf > output.txt 2>&1 & R=$!
sleep 2
i=0
PW=orders-2026-q3
while [ $i -lt 240 ]; do
  redis-cli -p 27201 -a "$PW" --no-auth-warning SET "order:$i" "{\"id\":$i,\"status\":\"paid\"}" > /dev/null
  redis-cli -p 27202 GET "order:$i" > /dev/null
  if [ $i = 120 ]; then
    redis-cli -p 27201 -a "$PW" --no-auth-warning CONFIG SET requirepass orders-2026-q4 > /dev/null
    PW=orders-2026-q4
    redis-cli -p 27201 -a "$PW" --no-auth-warning CLIENT KILL TYPE replica > /dev/null
  fi
  sleep 0.1
  i=$((i+1))
done
sleep 1
redis-cli -p 27202 SHUTDOWN NOSAVE > /dev/null 2>&1
redis-cli -p 27201 -a orders-2026-q4 --no-auth-warning SHUTDOWN NOSAVE > /dev/null 2>&1
wait $R; echo "replica exit $?"
wait $M
