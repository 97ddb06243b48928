#!/bin/sh
# Apache in the foreground (-X: one process, logs to the terminal: access log on stdout, error log
# on stderr) serving the DRF Markdown docs; a client walks every page three times, plus a few
# old .html URLs that the rewrite rules map to the Markdown sources. apache2's output is the case.
cd "$(dirname "$0")"
apache2 -X -f "$PWD/httpd.conf" > output.txt 2>&1 & H=$!
sleep 2
for round in 1 2 3; do
  while read -r p; do
    curl -s -o /dev/null -A "docs-check/1.0" "http://127.0.0.1:27190/$p"
  done < paths.txt
  while read -r p; do
    curl -s -o /dev/null -A "docs-check/1.0" "http://127.0.0.1:27190/$p"
  done < legacy.txt
done
sleep 1
kill $H; wait $H; echo "apache2 exit $?"
