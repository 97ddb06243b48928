#!/bin/sh
# Fault: one commit of the linted range reworded, its type 'feat' written 'feature'
# (history rewritten from that commit on; trees unchanged).
set -e
git -c core.hooksPath=/dev/null filter-branch -f --msg-filter '
  if [ "$GIT_COMMIT" = "40d7e36ffac0986ad0988fedd39a7ebcfde93d3c" ]; then sed "1s/^feat!:/feature!:/"; else cat; fi
' 40d7e36ffac0986ad0988fedd39a7ebcfde93d3c~1..HEAD
