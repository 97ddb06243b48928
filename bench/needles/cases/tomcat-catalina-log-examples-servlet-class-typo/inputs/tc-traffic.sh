#!/bin/bash
# bounded traffic to the local tomcat on 127.0.0.1:18080; $1 = rounds
urls="/ /examples/ /examples/jsp/jsp2/el/basic-arithmetic.jsp /examples/jsp/num/numguess.jsp /examples/servlets/servlet/RequestInfoExample /examples/servlets/servlet/SessionExample /examples/jsp/sessions/carts.jsp /examples/servlets/servlet/CookieExample /examples/jsp/dates/date.jsp"
for r in $(seq 1 $1); do for u in $urls; do curl -s -o /dev/null --max-time 5 "http://127.0.0.1:18080$u"; done; done
