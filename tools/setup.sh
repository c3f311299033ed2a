#!/usr/bin/env bash
# Set-up of nscd on Debian 12, in one command (README.md):
#   tools/setup.sh demo   install what is missing, build Release into build/, run scenes/default.json into out/
#   tools/setup.sh test   install what is missing, build, run the whole test suite (ctest)
#   tools/setup.sh build  install what is missing and build only
# Options (after the command):
#   --with-paraview  build against the VTK inside ParaView (paraview-dev) and install ParaView's Python
#                    (python3-paraview: pvpython, pvbatch's Python); the default when python3-paraview is
#                    already installed
#   --plan           print what would be installed and the CMake command, change nothing
# VTK: Debian 12 cannot hold python3-paraview and libvtk9-dev together (python3-paraview conflicts with
# python3-vtk9, which libvtk9-dev depends on). nscd builds with either: libvtk9-dev by default, the VTK of
# paraview-dev when python3-paraview is installed or asked for. The script never removes a package:
# it asks apt first (apt-get -s) and stops with exit code 2, saying why and what to run, when apt would.
# Packages come from Debian only; nothing is downloaded from anywhere else.
set -euo pipefail

mode=demo with_paraview=false plan=false
for arg in "$@"; do
  case "$arg" in
    demo|test|build) mode=$arg ;;
    --with-paraview) with_paraview=true ;;
    --plan) plan=true ;;
    *)
      echo "usage: tools/setup.sh [demo|test|build] [--with-paraview] [--plan]" >&2
      exit 2
      ;;
  esac
done
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

packages=(build-essential cmake python3 libeigen3-dev libtbb-dev libspdlog-dev libgtest-dev
          nlohmann-json3-dev libcli11-dev libfclib-dev libhdf5-dev libqhull-dev libssl-dev libgmsh-dev libspectra-dev libsuitesparse-dev libdeflate-dev python3-matplotlib
          pybind11-dev python3-dev python3-numpy python3-pytest)

installed() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}

# the VTK to build against, said in one line
if installed python3-paraview || $with_paraview; then
  vtk=paraview
  # ParaView's VTK: its CMake files refer to python3-paraview's modules, so both are needed
  packages+=(paraview-dev python3-paraview)
  if installed python3-paraview; then why="python3-paraview is installed"; else why="--with-paraview"; fi
  echo "nscd setup: VTK from paraview-dev, the VTK inside ParaView ($why; libvtk9-dev cannot be installed next to python3-paraview)"
else
  vtk=debian
  packages+=(libvtk9-dev)
  echo "nscd setup: VTK from Debian's libvtk9-dev (python3-paraview is not installed; --with-paraview builds against ParaView's VTK instead)"
fi

sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
say_sudo=${sudo:+$sudo }  # for the commands printed to the user

# apt's plan for installing "$@" is read first: refuse (exit 2) if it removes a package or cannot be made
refuse_unless_apt_can_install() {
  local simulation status=0
  simulation=$(LC_ALL=C apt-get -s install --no-install-recommends "$@" 2>&1) || status=$?
  local removed
  removed=$(sed -n 's/^Remv \([^ ]*\).*/\1/p' <<<"$simulation" | paste -sd ' ')
  if [ "$status" -eq 0 ] && [ -z "$removed" ]; then return 0; fi
  {
    echo
    if [ -n "$removed" ]; then
      echo "nscd setup: stopped. Installing $* would make apt remove: $removed"
      echo "tools/setup.sh never removes a package."
    else
      echo "nscd setup: stopped. apt cannot install $* next to the packages installed here."
    fi
    if [[ " $removed " == *" python3-vtk9 "* || " $removed " == *" libvtk9-dev "* ]]; then
      echo "Why: ParaView's Python (python3-paraview: pvpython, and pvbatch's Python) conflicts with"
      echo "python3-vtk9, which libvtk9-dev depends on; Debian 12 cannot hold both. nscd builds with either VTK."
      echo "What to run, either:"
      echo "  - keep libvtk9-dev: tools/setup.sh $mode   (without --with-paraview; ParaView's GUI installs next to it:"
      echo "    ${say_sudo}apt-get install --no-install-recommends paraview)"
      echo "  - switch this machine to ParaView's VTK (this removes $removed):"
      echo "    ${say_sudo}apt-get install --no-install-recommends paraview-dev python3-paraview && tools/setup.sh $mode"
    elif [ -n "$removed" ]; then
      echo "Why: one of these packages conflicts with, or replaces, the packages above (apt's plan below)."
      echo "What to run: remove them yourself if you mean to (${say_sudo}apt-get install --no-install-recommends $*"
      echo "asks before removing anything), then run tools/setup.sh $mode again."
    else
      echo "Why: usually a held package (apt-mark showhold lists them), a package installed from outside"
      echo "Debian 12 at another version, or an out-of-date package list."
      echo "What to run: ${say_sudo}apt-get update, then ${say_sudo}apt-get install --no-install-recommends $*"
      echo "to see which package blocks; fix or remove that one yourself, then run tools/setup.sh $mode again."
    fi
    echo "apt's own words:"
    # the removals, the errors, and the unmet dependencies' lines ("  pkg : Depends: ...")
    grep -E '^(Remv |E: )|^ +[^ ]+ : |^ +(Pre)?Depends: |^ +(Conflicts|Breaks): ' <<<"$simulation" | sed 's/^/    /' || true
  } >&2
  exit 2
}

install_missing() {
  local missing=()
  for p in "${packages[@]}"; do
    installed "$p" || missing+=("$p")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    $plan && echo "nscd setup: nothing to install"
    return 0
  fi
  if $plan; then
    refuse_unless_apt_can_install "${missing[@]}"
    echo "nscd setup: would install ${missing[*]}"
    return 0
  fi
  echo "nscd setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  refuse_unless_apt_can_install "${missing[@]}"
  # --no-remove: even so, apt stops rather than remove anything
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends --no-remove "${missing[@]}"
}

# ParaView's VTK: the CMake package inside paraview-dev (/usr/lib/<arch>/cmake/paraview-<version>/vtk)
paraview_vtk_dir() {
  local dirs=(/usr/lib/*/cmake/paraview-*/vtk)
  if [ -e "${dirs[0]}" ]; then echo "${dirs[0]}"; else echo "/usr/lib/<arch>/cmake/paraview-<version>/vtk"; fi
}

# configures and builds build/; with --plan, prints the CMake command and ends the script
build() {
  local cmake_vtk=()
  if [ "$vtk" = paraview ]; then
    cmake_vtk=(-DVTK_DIR="$(paraview_vtk_dir)")
  elif grep -q '^VTK_DIR:PATH=.*/paraview-' build/CMakeCache.txt 2>/dev/null; then
    cmake_vtk=(-UVTK_DIR)  # build/ was configured with ParaView's VTK: find libvtk9-dev's again
  fi
  if $plan; then
    echo "nscd setup: would run: cmake -S . -B build -DCMAKE_BUILD_TYPE=Release ${cmake_vtk[*]}"
    exit 0
  fi
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "${cmake_vtk[@]}"
  cmake --build build -j"$(nproc)"
}

case "$mode" in
  demo)
    install_missing
    build
    build/bin/nscd run scenes/default.json --out out/default --overwrite
    echo
    echo "Done. Open the result in ParaView:  paraview out/default/default.pvd"
    echo "(then press Apply and Play; histories are in out/default/*.csv)"
    if [ "$vtk" = paraview ]; then
      echo "or with a ready-made view (velocity, contact forces, time):  pvpython tools/paraview_view.py out/default"
    fi
    ;;
  test)
    install_missing
    build
    ctest --test-dir build --output-on-failure -j"$(nproc)"
    ;;
  build)
    install_missing
    build
    ;;
esac
