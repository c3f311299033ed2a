#!/usr/bin/env bash
# Checks nscd with ParaView's VTK and ParaView's Python on this Debian 12 machine, then puts the
# machine's packages back as they were:
#   1. installs paraview-dev, python3-paraview and xvfb; python3-paraview conflicts with python3-vtk9,
#      so apt removes python3-vtk9 and libvtk9-dev for the time of the check (what it installs and
#      removes is recorded first, with apt-get -s);
#   2. tools/setup.sh --plan must now choose ParaView's VTK;
#   3. builds nscd and the output tests into build-paraview/ against ParaView's VTK and runs the tests;
#   4. runs `nscd run scenes/default.json` into build-paraview/check/default;
#   5. opens the output with pvbatch (ParaView's reader, under xvfb-run) and checks the arrays of
#      every part and the output times (those of the scene's time section) and run.json's VTK record;
#   6. renders tools/paraview_view.py's view at t = 1 s to build-paraview/check/paraview_view.png;
#   7. always, even when a step fails: removes what step 1 installed and reinstalls what it removed
#      (with their automatic-install marks), and says whether the packages are as before.
# The log is build-paraview/check/check_paraview.log. With --docs, the log and the PNG are also
# copied to docs/paraview_check.log and docs/images/paraview_view.png.
# Do not run it while anything on this machine builds against libvtk9-dev: it is absent during the check.
#   tools/check_paraview.sh --yes [--docs]
set -euo pipefail

yes=false docs=false
for arg in "$@"; do
  case "$arg" in
    --yes) yes=true ;;
    --docs) docs=true ;;
    *) echo "usage: tools/check_paraview.sh --yes [--docs]" >&2; exit 2 ;;
  esac
done
if ! $yes; then
  echo "tools/check_paraview.sh removes libvtk9-dev and python3-vtk9 while it runs (python3-paraview conflicts" >&2
  echo "with them) and reinstalls them at the end; no build against libvtk9-dev may run meanwhile." >&2
  echo "Run it as: tools/check_paraview.sh --yes [--docs]" >&2
  exit 2
fi

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
check=build-paraview/check
rm -rf "$check"
mkdir -p "$check"
log=$check/check_paraview.log

sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
apt() { DEBIAN_FRONTEND=noninteractive $sudo apt-get "$@"; }
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
# pvbatch under a virtual X server (Debian's ParaView renders through X even off screen); -noreset:
# Xvfb otherwise resets when a first client disconnects, and pvbatch's render then sometimes finds no server
xvfb=(xvfb-run -a -s "-screen 0 1600x1200x24 -noreset")
current_step=""
step() { current_step=$*; echo; echo "== $*"; }
# every installed package, to compare before and after
installed_list() { dpkg-query -W -f='${binary:Package} ${db:Status-Abbrev}\n' | awk '$2 == "ii" {print $1}' | sort; }

# step 7, run at the exit of run_check's subshell, whatever the exit code
restore() {
  local code=$? failed_step=$current_step
  trap - EXIT
  set +e
  step "7. packages: back as before the check"
  local to_remove=() p
  for p in $new_packages; do installed "$p" && to_remove+=("$p"); done
  [ ${#to_remove[@]} -eq 0 ] || apt remove -y -qq "${to_remove[@]}" || echo "FAILED: apt-get remove ${to_remove[*]}"
  if [ -n "$removed_packages" ]; then
    # shellcheck disable=SC2086
    apt install -y -qq --no-install-recommends $removed_packages || echo "FAILED: apt-get install $removed_packages"
    # shellcheck disable=SC2086
    [ -z "$auto_removed" ] || $sudo apt-mark auto $auto_removed >/dev/null
  fi
  installed_list >"$check/packages_after.txt"
  if diff "$check/packages_before.txt" "$check/packages_after.txt" >"$check/packages_diff.txt"; then
    echo "packages restored: the installed packages are those before the check"
  else
    echo "FAILED: installed packages differ from before the check (< before, > now):"
    cat "$check/packages_diff.txt"
    [ "$code" -ne 0 ] || code=1
  fi
  tools/setup.sh build --plan 2>&1 | head -1
  echo
  if [ "$code" -eq 0 ]; then echo "check_paraview: PASSED (log: $log)"; else echo "check_paraview: FAILED at step \"$failed_step\" (log: $log)"; fi
  exit "$code"
}

# steps 1 to 6 (not indented, for the here-documents), in a subshell with set -e
run_check() {
wanted=(paraview-dev python3-paraview xvfb)
step "1. packages: apt's plan for ${wanted[*]}"
plan=$(LC_ALL=C apt-get -s install --no-install-recommends "${wanted[@]}")
# new packages only ("Inst p (v ...)"); an upgrade ("Inst p [old] (new ...)") is not undone
new_packages=$(sed -n 's/^Inst \([^ ]*\) (.*/\1/p' <<<"$plan" | paste -sd ' ')
removed_packages=$(sed -n 's/^Remv \([^ ]*\).*/\1/p' <<<"$plan" | paste -sd ' ')
upgraded=$(sed -n 's/^Inst \([^ ]*\) \[.*/\1/p' <<<"$plan" | paste -sd ' ')
auto_removed=$(comm -12 <(apt-mark showauto | sort) <(tr ' ' '\n' <<<"$removed_packages" | sort) | paste -sd ' ')
echo "installs: ${new_packages:-nothing}"
echo "removes:  ${removed_packages:-nothing}"
[ -z "$upgraded" ] || echo "upgrades (not undone at the end): $upgraded"
installed_list >"$check/packages_before.txt"
trap restore EXIT
apt install -y -qq --no-install-recommends "${wanted[@]}"

step "2. tools/setup.sh chooses ParaView's VTK"
tools/setup.sh build --plan | tee "$check/setup_plan.txt"
grep -q "^nscd setup: VTK from paraview-dev" "$check/setup_plan.txt" || { echo "FAILED: not ParaView's VTK"; exit 1; }

step "3. build against ParaView's VTK into build-paraview/"
vtk_dirs=(/usr/lib/*/cmake/paraview-*/vtk)
rm -f build-paraview/CMakeCache.txt  # a fresh configuration: nothing cached from another VTK
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
cmake -S . -B build-paraview -DCMAKE_BUILD_TYPE=Release -DNSCD_BUILD_BENCH=OFF -DVTK_DIR="${vtk_dirs[0]}" \
      "${launcher[@]}" | tee "$check/configure.txt" | grep "nscd:"
grep -q "nscd: VTK .* from paraview-dev, the VTK inside ParaView" "$check/configure.txt" ||
  { echo "FAILED: CMake did not report ParaView's VTK"; exit 1; }
cmake --build build-paraview -j"$(nproc)" --target nscd test_io test_app
echo "libraries: $(ldd build-paraview/bin/nscd | grep -o 'libvtk[A-Za-z]*-pv[0-9.]*' | sort -u | paste -sd ' ')"
build-paraview/bin/test_io --gtest_brief=1
build-paraview/bin/test_app --gtest_brief=1

step "4. nscd run scenes/default.json"
build-paraview/bin/nscd run scenes/default.json --out "$check/default" --quiet
ls "$check/default" | sed -n '1p;$p'

step "5. ParaView reads the output"
cat >"$check/read_output.py" <<'PY'
import json, math, sys
from paraview.simple import PVDReader, ExtractBlock, MergeBlocks

out, scene_file = sys.argv[1], sys.argv[2]
scene = json.load(open(scene_file))
run = json.load(open(f"{out}/run.json"))
failures = []
def check(ok, what):
    print(("ok      " if ok else "FAILED  ") + what)
    if not ok:
        failures.append(what)

check(run["vtk"]["origin"] == "paraview-dev" and run["vtk"]["version"].startswith("9."),
      f"run.json vtk = {run['vtk']} (ParaView's)")
reader = PVDReader(FileName=f"{out}/default.pvd")
times = list(reader.TimestepValues)
# the scene's output times: 0, every output_interval, and the end
step, duration, interval = scene["time"]["step"], scene["time"]["duration"], scene["time"]["output_interval"]
every = round(interval / step)
n_steps = round(duration / step)
expected = [k * step for k in range(0, n_steps + 1, every)]
if expected[-1] != n_steps * step:
    expected.append(n_steps * step)
check(len(times) == len(expected) and all(math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)
                                          for a, b in zip(times, expected)),
      f"{len(times)} output times {times[0]} ... {times[-1]} s (expected {len(expected)}: 0, {interval}, ... {expected[-1]} s)")
check(math.isclose(run["simulated_time"], times[-1]), f"run.json simulated_time {run['simulated_time']} = last output time")
parts = {"bodies": ("bodies", {"velocity", "displacement"}, {"body_id", "model"}),
         "contacts": ("contacts", {"normal", "reaction", "normal_force", "tangential_force", "gap", "status", "body_a", "body_b"}, set()),
         "fixed": ("fixed", {"velocity", "displacement"}, {"body_id", "model"}),
         "joints": ("joints", {"thrust"}, {"joint", "part", "body_a", "body_b", "area", "normal", "normal_force", "shear",
                                           "moment", "eccentricity", "inside", "opening", "sliding", "state"})}
for block, (name, point_arrays, cell_arrays) in parts.items():
    data = MergeBlocks(Input=ExtractBlock(Input=reader, Selectors=[f"/Root/{block}"]))
    data.UpdatePipeline(1.0)
    n = data.GetDataInformation().GetNumberOfPoints()
    found_p, found_c = set(data.PointData.keys()), set(data.CellData.keys())
    check(n > 0 and found_p == point_arrays and found_c == cell_arrays,
          f"{name} at t = 1 s: {n} points, point arrays {sorted(found_p)}, cell arrays {sorted(found_c)}")
    if name == "contacts":
        r = data.PointData["reaction"].GetRange(-1)
        f = data.PointData["normal_force"].GetRange()
        check(r[1] > 0 and f[0] >= 0, f"contacts at t = 1 s: |reaction| up to {r[1]:.4g} N, normal_force in [{f[0]:.4g}, {f[1]:.4g}] N")
sys.exit(1 if failures else 0)
PY
"${xvfb[@]}" pvbatch --force-offscreen-rendering "$check/read_output.py" \
  "$check/default" scenes/default.json

step "6. the ready-made view, off screen"
"${xvfb[@]}" pvbatch --force-offscreen-rendering tools/paraview_view.py "$check/default" \
  --png "$check/paraview_view.png" --time 1
python3 - "$check/paraview_view.png" <<'PY'
import struct, sys
head = open(sys.argv[1], "rb").read(24)
assert head[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
width, height = struct.unpack(">II", head[16:24])
assert (width, height) == (1200, 800), f"{width}x{height}, expected 1200x800"
print(f"{sys.argv[1]}: PNG {width}x{height}")
PY
}

set +e
(set -e; run_check) 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
if [ "$status" -eq 0 ] && $docs; then
  cp "$check/paraview_view.png" docs/images/paraview_view.png
  cp "$log" docs/paraview_check.log
  echo "copied to docs/images/paraview_view.png and docs/paraview_check.log"
fi
exit "$status"
