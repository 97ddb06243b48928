#!/bin/sh
# The working tree of a developer who has run examples/https.js: it reads a key and a
# certificate from test/https/, which .gitignore and .npmignore both list.
openssl req -x509 -newkey rsa:2048 -nodes -keyout test/https/fastify.key \
  -out test/https/fastify.cert -days 365 -subj "/CN=localhost"
