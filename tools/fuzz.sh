#!/usr/bin/env bash
# Fuzzes the scene reader and the FCLIB reader with libFuzzer (Debian's clang and
# libclang-rt-14-dev), under AddressSanitizer and UndefinedBehaviorSanitizer:
#   tools/fuzz.sh [RUNS]     RUNS executions per target (default 20000)
# Builds into build-fuzz/, seeds each corpus from scenes/*.json and tests/data/fclib/*.hdf5
# (copies inside build-fuzz/, never in the project), and writes crashing inputs to
# build-fuzz/findings/. Prints the executions and findings of each target; docs/robustness.md
# records them.
set -euo pipefail
runs=${1:-20000}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

flags="-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -g"
mkdir -p build-fuzz
CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNSCD_BUILD_TESTS=OFF \
  -DNSCD_BUILD_BENCH=OFF -DNSCD_BUILD_FUZZERS=ON -DCMAKE_CXX_FLAGS="$flags" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" > build-fuzz/build.log
cmake --build build-fuzz -j"$(nproc)" --target fuzz_scene_reader fuzz_fclib_reader >> build-fuzz/build.log

rm -rf build-fuzz/findings
mkdir -p build-fuzz/corpus_scene build-fuzz/corpus_fclib build-fuzz/findings
cp scenes/*.json build-fuzz/corpus_scene/
find tests/data/fclib -name '*.hdf5' -size -2M -exec cp {} build-fuzz/corpus_fclib/ \;
export LSAN_OPTIONS="suppressions=$root/tools/lsan.supp"
status=0
for target in scene fclib; do
  log=build-fuzz/fuzz_${target}.log
  if build-fuzz/bin/fuzz_${target}_reader build-fuzz/corpus_${target} -runs="$runs" -max_len=65536 \
       -artifact_prefix=build-fuzz/findings/${target}_ > "$log" 2>&1; then
    echo "fuzz_${target}_reader: $(grep -o 'Done [0-9]* runs in [0-9]* second(s)' "$log"), no finding"
  else
    status=1
    echo "fuzz_${target}_reader: FINDING, see $log and build-fuzz/findings/"
    grep -m3 -E 'ERROR|SUMMARY|terminate' "$log" || true
  fi
done
exit $status
