#!/usr/bin/env bash
# tools/setup.sh's choice of VTK under both package states, simulated: fake dpkg-query, apt-get and sudo
# first on PATH, and a copy of setup.sh in a scratch project (so that no build/ of the real one counts).
# Nothing is installed or built: the runs use --plan, or stop with exit code 2 before building.
#   FAKE_INSTALLED    the packages the fake dpkg-query reports installed
#   FAKE_APT_BROKEN   set: the fake apt-get's simulation fails as apt's resolver does
# The fake apt-get logs every call; its simulation (-s) removes python3-vtk9 and libvtk9-dev, when
# installed, for python3-paraview, as Debian 12's apt does (python3-paraview conflicts with python3-vtk9).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/bin" "$scratch/project/tools"
cp "$here/../../tools/setup.sh" "$scratch/project/tools/"
export FAKE_APT_LOG=$scratch/apt.log
export PATH=$scratch/bin:$PATH

cat >"$scratch/bin/dpkg-query" <<'FAKE'
#!/usr/bin/env bash
# dpkg-query -W -f='${Status}' PACKAGE
case " $FAKE_INSTALLED " in
  *" ${!#} "*) printf 'install ok installed' ;;
  *) echo "dpkg-query: no packages found matching ${!#}" >&2; exit 1 ;;
esac
FAKE
cat >"$scratch/bin/apt-get" <<'FAKE'
#!/usr/bin/env bash
echo "$*" >>"$FAKE_APT_LOG"
[ "$1" = -s ] || exit 0
if [ -n "${FAKE_APT_BROKEN:-}" ]; then
  echo "Some packages could not be installed. This may mean that you have requested an impossible situation"
  echo "The following packages have unmet dependencies:"
  echo " libgmsh-dev : Depends: libgmsh4.11 (= 4.11.1+ds1-1) but 4.12.0-1 is to be installed"
  echo "E: Error, pkgProblemResolver::Resolve generated breaks, this may be caused by held packages."
  exit 100
fi
for p in "$@"; do
  case "$p" in -*|install) continue ;; esac
  if [ "$p" = python3-paraview ]; then
    for r in libvtk9-dev python3-vtk9; do  # in the order Debian 12's apt lists them
      case " $FAKE_INSTALLED " in *" $r "*) echo "Remv $r [9.1.0+really9.1.0+dfsg2-5+deb12u1]" ;; esac
    done
  fi
  echo "Inst $p (1.0 Debian:12 [amd64])"
done
FAKE
printf '#!/bin/sh\nexec "$@"\n' >"$scratch/bin/sudo"
chmod +x "$scratch/bin/"*

common=$(echo build-essential cmake python3 libeigen3-dev libtbb-dev libspdlog-dev libgtest-dev nlohmann-json3-dev \
  libcli11-dev libfclib-dev libhdf5-dev libqhull-dev libssl-dev libgmsh-dev libspectra-dev libsuitesparse-dev libdeflate-dev python3-matplotlib pybind11-dev python3-dev \
  python3-numpy python3-pytest)
debian_machine="$common libvtk9-dev python3-vtk9"
paraview_machine="$common paraview python3-paraview"  # ParaView installed with its recommends

failures=0
fail() { echo "FAIL: $case_name: $*"; failures=$((failures + 1)); }
# run CASE_NAME INSTALLED ARGS...: setup.sh's stdout+stderr in $out, exit code in $code, fresh apt log
run() {
  case_name=$1 FAKE_INSTALLED=$2
  export FAKE_INSTALLED
  shift 2
  : >"$FAKE_APT_LOG"
  code=0
  out=$(bash "$scratch/project/tools/setup.sh" "$@" 2>&1) || code=$?
}
expect_code() { [ "$code" -eq "$1" ] || fail "exit code $code, expected $1; output:"$'\n'"$out"; }
expect() { grep -qF -- "$1" <<<"$out" || fail "no \"$1\" in:"$'\n'"$out"; }
expect_not() { ! grep -qF -- "$1" <<<"$out" || fail "unexpected \"$1\" in:"$'\n'"$out"; }
# the choice is said in exactly one line
expect_choice() {
  [ "$(grep -c '^nscd setup: VTK from' <<<"$out")" -eq 1 ] || fail "not one line saying the VTK chosen:"$'\n'"$out"
  expect "nscd setup: VTK from $1"
}
installed_nothing() {
  ! grep -qE '^install ' "$FAKE_APT_LOG" || fail "apt-get install ran: $(cat "$FAKE_APT_LOG")"
}

run "Debian's VTK installed" "$debian_machine" build --plan
expect_code 0
expect_choice "Debian's libvtk9-dev"
expect "nscd setup: nothing to install"
expect "would run: cmake -S . -B build -DCMAKE_BUILD_TYPE=Release"
expect_not "VTK_DIR"
[ ! -s "$FAKE_APT_LOG" ] || fail "apt-get called: $(cat "$FAKE_APT_LOG")"

run "a new machine" "" test --plan
expect_code 0
expect_choice "Debian's libvtk9-dev"
expect "would install build-essential"
expect "libvtk9-dev"
expect_not "paraview-dev"
[ "$(cat "$FAKE_APT_LOG")" = "-s install --no-install-recommends $common libvtk9-dev" ] ||
  fail "expected only apt's simulation, found: $(cat "$FAKE_APT_LOG")"

run "ParaView installed" "$paraview_machine" demo --plan
expect_code 0
expect_choice "paraview-dev, the VTK inside ParaView (python3-paraview is installed"
expect "would install paraview-dev"
expect_not "libvtk9-dev python3-vtk9"
expect_not "would install paraview-dev python3-paraview"
grep -qE 'would run: cmake .* -DVTK_DIR=/usr/lib/[^ ]*/cmake/paraview-[^ ]*/vtk$' <<<"$out" ||
  fail "no -DVTK_DIR=/usr/lib/.../cmake/paraview-.../vtk in:"$'\n'"$out"
installed_nothing

run "ParaView asked for next to libvtk9-dev" "$debian_machine" demo --with-paraview
expect_code 2
expect_choice "paraview-dev, the VTK inside ParaView (--with-paraview"
expect "would make apt remove: libvtk9-dev python3-vtk9"
expect "never removes a package"
expect "conflicts with"
expect "keep libvtk9-dev: tools/setup.sh demo"
expect "apt-get install --no-install-recommends paraview-dev python3-paraview && tools/setup.sh demo"
expect "Remv libvtk9-dev"
expect_not "would run: cmake"
installed_nothing

run "ParaView asked for on a new machine" "" build --plan --with-paraview
expect_code 0
expect "would install"
expect "paraview-dev python3-paraview"
expect_not "libvtk9-dev python3-vtk9"

FAKE_APT_BROKEN=1 run "apt's resolver fails" "${common/libgmsh-dev/}" build
unset FAKE_APT_BROKEN
expect_code 2
expect "apt cannot install libgmsh-dev libvtk9-dev"
expect "held package"
expect "What to run:"
expect "    E: Error, pkgProblemResolver::Resolve generated breaks"
expect "     libgmsh-dev : Depends: libgmsh4.11"
installed_nothing

# back to libvtk9-dev after a ParaView set-up: CMake forgets ParaView's VTK_DIR
mkdir -p "$scratch/project/build"
echo "VTK_DIR:PATH=/usr/lib/x86_64-linux-gnu/cmake/paraview-5.11/vtk" >"$scratch/project/build/CMakeCache.txt"
run "libvtk9-dev after ParaView" "$debian_machine" build --plan
expect_code 0
expect "would run: cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -UVTK_DIR"

run "an unknown option" "$debian_machine" build --with-paraviw
expect_code 2
expect "usage: tools/setup.sh [demo|test|build] [--with-paraview] [--plan]"

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "tools/setup.sh: VTK choice correct in every simulated package state"
