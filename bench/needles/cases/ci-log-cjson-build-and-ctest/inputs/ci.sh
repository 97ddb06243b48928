#!/bin/bash
# CI job: configure, build and test cJSON (as a CI runner would, with xtrace)
set -exo pipefail
uname -a
gcc --version
cmake --version
rm -rf ci-build && mkdir ci-build && cd ci-build
cmake .. -DENABLE_CJSON_UTILS=On -DENABLE_CJSON_TEST=On -DCMAKE_BUILD_TYPE=Debug
make -j2 VERBOSE=1
ctest --output-on-failure
echo "CI: all steps passed"
