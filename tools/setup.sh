#!/usr/bin/env bash
# Set-up of nscd on Debian 12, in one command (README.md):
#   tools/setup.sh demo   install what is missing, build Release into build/, run scenes/default.json into out/
#   tools/setup.sh test   install what is missing, build, run the whole test suite (ctest)
#   tools/setup.sh build  install what is missing and build only
# Packages come from Debian only; nothing is downloaded from anywhere else.
set -euo pipefail

mode=${1:-demo}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

packages=(build-essential cmake python3 libeigen3-dev libtbb-dev libvtk9-dev libspdlog-dev libgtest-dev
          nlohmann-json3-dev libcli11-dev libfclib-dev libhdf5-dev libqhull-dev libssl-dev libgmsh-dev python3-matplotlib)

install_missing() {
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "nscd setup: installing ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

build() {
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
  cmake --build build -j"$(nproc)"
}

case "$mode" in
  demo)
    install_missing
    build
    build/bin/nscd run scenes/default.json --out out/default
    echo
    echo "Done. Open the result in ParaView:  paraview out/default/default.pvd"
    echo "(then press Apply and Play; histories are in out/default/*.csv)"
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
  *)
    echo "usage: tools/setup.sh [demo|test|build]" >&2
    exit 2
    ;;
esac
