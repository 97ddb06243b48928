#!/bin/sh
# The fault: the sendmsg helpers of src/unix/udp.c split into a new source file and header, both
# written without the MIT licence header every other libuv file carries.
set -e
{
  printf '#ifndef UV_UNIX_UDP_SENDMSG_H_\n#define UV_UNIX_UDP_SENDMSG_H_\n\n#include "uv.h"\n#include "internal.h"\n\n'
  sed -n '53,56p' src/unix/udp.c | sed 's/^static //'
  printf '\n#endif  /* UV_UNIX_UDP_SENDMSG_H_ */\n'
} > src/unix/udp-sendmsg.h
{
  printf '#include "udp-sendmsg.h"\n\n#include <errno.h>\n#include <sys/socket.h>\n\n'
  sed -n '1379,1468p' src/unix/udp.c | sed 's/^static int uv__udp_sendmsg/int uv__udp_sendmsg/'
} > src/unix/udp-sendmsg.c
sed -i '1379,1468d' src/unix/udp.c
