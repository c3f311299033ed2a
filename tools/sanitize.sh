#!/usr/bin/env bash
# Builds the project with AddressSanitizer and UndefinedBehaviorSanitizer into build-asan/ and
# runs the test suite there, so that memory errors and undefined behaviour fail (run by .ci/run
# after the README's test command). The tests labelled slow (tests/CMakeLists.txt) are left out:
# the shaking-wall determinism test takes minutes under the sanitizers and the default-scene
# determinism test exercises the same paths; the long runs repeat for thousands of steps what the
# shorter contact tests run. So are the three fast tests that took longest under the sanitizers
# (204, 165 and 88 s of the 1 370 s the suite took on two cores), whose code other tests run here:
#   SolverChoice.ArchStandsTheSameWithNlgsAndCorrectedCcp: NLGS and CCP to 1e-8 over 100 steps of the
#     arch; the solver family's FCLIB tests run both solvers, the arch's other tests the scene;
#   Paper41/FreeTlCuboid.TopPointFollowsTheRigidTrajectory/1: the instance at 4π rad/s runs the same code;
#   TlDynamics.BlockOnAFrictionlessTableSettlesToTheStaticShortening: TL blocks in contact, run by
#     Determinism.ThreeTlBlocksAreBitwiseEqualWithOneAndTwoThreads and the TL checkpoint test.
# All of them run in the README's test command.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

flags="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
# no Python module: an instrumented extension cannot be loaded by the uninstrumented interpreter.
# -g1: line tables, all the sanitizers' stack traces need; full debug info (-g) made the build a
# third longer (solvers/velocity_prox.cpp: 71 s against 48 s) and does not change the code.
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNSCD_BUILD_BENCH=OFF -DNSCD_PYTHON=OFF \
      -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
      -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined"
cmake --build build-asan -j"$(nproc)"
export LSAN_OPTIONS="suppressions=$root/tools/lsan.supp"
export UBSAN_OPTIONS="print_stacktrace=1"
left_out='^(SolverChoice\.ArchStandsTheSameWithNlgsAndCorrectedCcp|Paper41/FreeTlCuboid\.TopPointFollowsTheRigidTrajectory/1|TlDynamics\.BlockOnAFrictionlessTableSettlesToTheStaticShortening)$'
ctest --test-dir build-asan --output-on-failure -j"$(nproc)" -LE slow -E "$left_out"
