#!/bin/sh
# Two python http.server backends serving the docs tree, haproxy in front in the foreground (-db),
# a client walking every page six times (and a favicon each round). The fault: after round 2 the
# second backend is killed (kill -9, as a crash), after round 4 it is started again.
# haproxy's own output (its log goes to stdout) is the case.
cd "$(dirname "$0")"
DOCS=/tmp/corpus-corpus/drf
python3 -m http.server 27181 --bind 127.0.0.1 --directory "$DOCS" >/dev/null 2>&1 & B1=$!
python3 -m http.server 27182 --bind 127.0.0.1 --directory "$DOCS" >/dev/null 2>&1 & B2=$!
sleep 1
haproxy -db -f haproxy.cfg > output.txt 2>&1 & H=$!
sleep 1
for round in 1 2 3 4 5 6; do
  while read -r p; do
    curl -s -o /dev/null "http://127.0.0.1:27180/$p"
    sleep 0.03
  done < paths.txt
  curl -s -o /dev/null "http://127.0.0.1:27180/favicon.ico"
  if [ $round = 2 ]; then kill -9 $B2; fi
  if [ $round = 4 ]; then
    python3 -m http.server 27182 --bind 127.0.0.1 --directory "$DOCS" >/dev/null 2>&1 & B2=$!
  fi
done
sleep 1
kill $H; wait $H; echo "haproxy exit $?"
kill $B1 $B2
