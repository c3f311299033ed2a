#!/bin/bash
# Instructions per time step of `bench_scene` on a scene, after a warm-up: callgrind counts the
# instructions inside nscd::step for (warm-up + 1 + STEPS) and (warm-up + 1) steps, and the
# difference is divided by STEPS. Unlike a time per step, the count does not depend on the
# machine's load or clock, so two builds can be compared to a fraction of a per cent on a shared
# machine (it does not see cache misses: confirm a gain in time with bench_scene).
#
#   bench/instructions_per_step.sh SCENE [--warmup N] [--steps N] [--bench PATH]
#
# Needs valgrind (Debian: apt-get install valgrind). Prints "instructions per step: N".
set -euo pipefail

usage() { echo "usage: $0 SCENE [--warmup N] [--steps N] [--bench PATH]" >&2; exit 2; }
[ $# -ge 1 ] || usage
scene=$1; shift
warmup=300 steps=600 bench="$(dirname "$0")/../build/bin/bench_scene"
while [ $# -gt 0 ]; do
  case $1 in
    --warmup) warmup=${2:?}; shift 2 ;;
    --steps) steps=${2:?}; shift 2 ;;
    --bench) bench=${2:?}; shift 2 ;;
    *) usage ;;
  esac
done
[ -f "$scene" ] || { echo "$0: no scene file $scene" >&2; exit 2; }
[ -x "$bench" ] || { echo "$0: no bench_scene at $bench (build first: tools/setup.sh build)" >&2; exit 2; }
command -v valgrind > /dev/null || { echo "$0: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
count() {  # instructions inside nscd::step over warm-up + $1 steps
  valgrind --tool=callgrind --collect-atstart=no --toggle-collect='nscd::step(*' \
    --callgrind-out-file="$work/$1.out" "$bench" "$scene" --warmup "$warmup" --steps "$1" > /dev/null 2>&1
  callgrind_annotate "$work/$1.out" | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }'
}
short=$(count 1)
long=$(count $((steps + 1)))
echo "instructions per step: $(( (long - short) / steps ))"
