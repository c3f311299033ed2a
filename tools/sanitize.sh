#!/usr/bin/env bash
# Builds the project with AddressSanitizer and UndefinedBehaviorSanitizer into build-asan/ and
# runs the test suite there, so that memory errors and undefined behaviour fail (run by .ci/run
# after the README's test command). The tests labelled slow (tests/CMakeLists.txt) are left out:
# the shaking-wall determinism test takes minutes under the sanitizers and the default-scene
# determinism test exercises the same paths; the long runs repeat for thousands of steps what the
# shorter contact tests run.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

flags="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
# no Python module: an instrumented extension cannot be loaded by the uninstrumented interpreter
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNSCD_BUILD_BENCH=OFF -DNSCD_PYTHON=OFF \
      -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined"
cmake --build build-asan -j"$(nproc)"
export LSAN_OPTIONS="suppressions=$root/tools/lsan.supp"
export UBSAN_OPTIONS="print_stacktrace=1"
ctest --test-dir build-asan --output-on-failure -j"$(nproc)" -LE slow
