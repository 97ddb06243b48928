#!/bin/sh
# run.sh OUTFILE: fresh database, gunicorn in the background, traffic, SIGTERM to the master.
OUT=$1
cd /tmp/corpus-corpus/r5/flaskr/examples/tutorial || exit 1
rm -rf instance && /usr/bin/python3 -m flask --app flaskr init-db >/dev/null 2>&1
W=$(mktemp -d)
gunicorn --workers 2 --log-level debug --access-logfile - --error-logfile - --bind 127.0.0.1:18731 "flaskr:create_app()" > "$OUT" 2>&1 &
PID=$!
for i in 1 2 3 4 5 6 7 8 9 10; do curl -s -o /dev/null http://127.0.0.1:18731/hello && break; sleep 0.5; done
/tmp/corpus-corpus/r5/gu/traffic.sh http://127.0.0.1:18731 "$W"
sleep 1
kill -TERM $PID
wait $PID
echo "gunicorn exit $?"
rm -rf "$W"
