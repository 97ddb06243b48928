#!/bin/sh
# Starts lighttpd in the foreground (access log on stdout, error log on stderr, both piped into
# out.txt), fetches every file of the docs site three times, and the legacy /api/<Name>.html
# URLs once each round, then stops it with SIGTERM.
cd "$(dirname "$0")"
sh -c 'echo $$ > lt.pid; exec lighttpd -D -f lighttpd.conf 2>&1; ' | cat > out.txt &
sleep 1
for round in 1 2 3; do
  (cd site && find . -type f | sort) | while read -r f; do
    curl -s -o /dev/null "http://127.0.0.1:27231/${f#./}"
  done
  for f in site/docs/api/*.md; do
    n=$(basename "$f" .md)
    curl -s -o /dev/null "http://127.0.0.1:27231/api/$n.html"
  done
done
kill -TERM "$(cat lt.pid)"
wait
