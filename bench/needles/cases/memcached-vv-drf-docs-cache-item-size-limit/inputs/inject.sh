#!/bin/sh
# memcached -vv (every client command and response on stderr) as a page cache for the DRF docs:
# a writer stores each of the 70 Markdown pages (memccp, key = file name), then a reader fetches
# every page three times (memccat). The fault: the cache was started with a 32 kB item size limit
# (-I 32k -o slab_chunk_max=16384) while several pages are larger. memcached's own output is the case.
cd "$(dirname "$0")"
DOCS=/tmp/corpus-corpus/drf
memcached -vv -u root -l 127.0.0.1 -p 27220 -m 64 -I 32k -o slab_chunk_max=16384 > output.txt 2>&1 & M=$!
sleep 1
S=--servers=127.0.0.1:27220
for f in $(cd "$DOCS" && find docs -name "*.md" | sort); do
  memccp $S "$DOCS/$f" > /dev/null 2>&1
done
for round in 1 2 3; do
  for f in $(cd "$DOCS" && find docs -name "*.md" | sort); do
    memccat $S "$(basename "$f")" > /dev/null 2>&1
  done
done
sleep 1
kill $M; wait $M; echo "memcached exit $?"
