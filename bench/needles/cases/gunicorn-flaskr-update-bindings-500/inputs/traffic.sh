#!/bin/sh
# Drives the flaskr tutorial app like a small team would: 12 users register, log in, write
# posts, browse, edit and delete. Usage: traffic.sh BASE_URL WORKDIR
B=$1; W=$2
for u in 1 2 3 4 5 6 7 8 9 10 11 12; do
  jar="$W/jar$u"
  curl -s -o /dev/null -c "$jar" "$B/auth/register"
  curl -s -o /dev/null -b "$jar" -c "$jar" -d "username=user$u&password=secret$u" "$B/auth/register"
  curl -s -o /dev/null -b "$jar" -c "$jar" "$B/auth/login"
  curl -s -o /dev/null -b "$jar" -c "$jar" -d "username=user$u&password=secret$u" "$B/auth/login"
  curl -s -o /dev/null -b "$jar" "$B/"
  for p in 1 2 3; do
    curl -s -o /dev/null -b "$jar" "$B/create"
    curl -s -o /dev/null -b "$jar" -d "title=Post $p by user$u&body=Notes number $p from user $u." "$B/create"
    curl -s -o /dev/null -b "$jar" "$B/"
  done
  curl -s -o /dev/null -b "$jar" "$B/hello"
done
# each user edits their second post, then deletes their first one
for u in 1 2 3 4 5 6 7 8 9 10 11 12; do
  jar="$W/jar$u"
  id=$(( (u - 1) * 3 + 2 ))
  curl -s -o /dev/null -b "$jar" "$B/$id/update"
  curl -s -o /dev/null -b "$jar" -d "title=Post 2 by user$u (edited)&body=Edited notes." "$B/$id/update"
  curl -s -o /dev/null -b "$jar" "$B/"
  curl -s -o /dev/null -b "$jar" -X POST "$B/$(( (u - 1) * 3 + 1 ))/delete"
  curl -s -o /dev/null -b "$jar" "$B/"
done
# a wrong password and a page that does not exist
curl -s -o /dev/null -d "username=user1&password=nope" "$B/auth/login"
curl -s -o /dev/null "$B/favicon.ico"
for u in 1 2 3; do curl -s -o /dev/null -b "$W/jar$u" "$B/auth/logout"; done
