#!/bin/sh
# The fault is a commit inserted into pytoolz/toolz's history: a clone of the
# repository, a branch 'bis' from 08f2604 with one commit that narrows get_in's
# except clause (dropping IndexError), then the 8 later commits of master
# (688a812..568c2b8, all linear) cherry-picked on top.
set -e
git checkout -q -b bis 08f2604
sed -i 's/    except (KeyError, IndexError, TypeError):/    except (KeyError, TypeError):/' toolz/dicttoolz.py
git -c user.name="corpus helper" -c user.email="helper@example.invalid" commit -qam "Narrow get_in's exception handling"
git -c user.name="corpus helper" -c user.email="helper@example.invalid" cherry-pick 08f2604..568c2b8
