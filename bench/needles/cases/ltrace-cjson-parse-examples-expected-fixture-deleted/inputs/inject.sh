#!/bin/sh
# The fault: one expected-output fixture deleted from cJSON's tests, then a fresh configure
# (tests/CMakeLists.txt copies tests/inputs/* into the build tree at configure time) and build.
rm tests/inputs/test7.expected
cmake -S . -B build2 -DENABLE_CJSON_TEST=On -DCMAKE_BUILD_TYPE=Debug
cmake --build build2 -j2 --target parse_examples
cd build2/tests && ltrace ./parse_examples > output.txt 2>&1
