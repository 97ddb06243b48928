#!/bin/sh
# uWSGI (master + 2 workers, HTTP socket) serving the Flask tutorial app (flaskr);
# a client browses anonymously, registers ten users, then each logs in and browses.
cd "$(dirname "$0")"
uwsgi --plugin python3 --http-socket 127.0.0.1:27210 --master --processes 2 --module 'flaskr:create_app()' > output.txt 2>&1 & U=$!
sleep 3
B=http://127.0.0.1:27210
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
  curl -s -o /dev/null "$B/"
done
for u in alice bob carol dave erin frank grace heidi ivan judy; do
  curl -s -o /dev/null "$B/auth/register"
  curl -s -o /dev/null -d "username=$u&password=pw-$u-2026" "$B/auth/register"
done
for u in alice bob carol dave erin frank grace heidi ivan judy; do
  J=$(mktemp)
  curl -s -o /dev/null -c "$J" -b "$J" "$B/auth/login"
  curl -s -o /dev/null -c "$J" -b "$J" -d "username=$u&password=pw-$u-2026" "$B/auth/login"
  curl -s -o /dev/null -c "$J" -b "$J" "$B/"
  curl -s -o /dev/null -c "$J" -b "$J" "$B/create"
  rm -f "$J"
done
for i in 1 2 3 4 5 6 7 8 9 10; do
  curl -s -o /dev/null "$B/"
done
sleep 1
kill -INT $U; wait $U; echo "uwsgi exit $?"
