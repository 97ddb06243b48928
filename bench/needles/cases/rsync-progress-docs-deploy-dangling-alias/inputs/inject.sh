#!/bin/sh
# The fault: an alias page for an API page that moved from interfaces/ to
# types/, added as a symlink whose target is misspelled (CommentDisplayParts).
ln -s ../types/CommentDisplayParts.html site/interfaces/CommentDisplayPart.html
