#!/usr/bin/env bash
# The torch 2.x lane: a Debian 13 (trixie) root with Debian's PyTorch 2.6 and the project's
# packages, created once under the ignored folder .torch2/ and reused.
#
#   .ci/torch2.sh ensure          create (or finish creating) the root
#   .ci/torch2.sh run CMD [ARG]   run CMD inside it, from the same checkout path
#
# Each `run` gets a private mount namespace (unshare): /proc, /sys, /dev and the checkout are
# mounted inside the root for that process tree only and vanish with it, so concurrent runs
# and interrupted runs leave nothing mounted behind. Needs root (debootstrap, chroot).
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
lane_dir="${OPWEAVE_TORCH2_DIR:-$here/.torch2}"
root="$lane_dir/root"
mirror="${OPWEAVE_TORCH2_MIRROR:-http://deb.debian.org/debian}"
# The host's package list (Makefile: DEBIAN_PACKAGES) plus what the root lacks: make, git, and
# setuptools (torch.utils.cpp_extension imports it on 2.x).
packages="$(make -s -C "$here" print-packages) make git python3-setuptools"
stamp="$root/.opweave-ready"

ensure() {
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$packages" ]; then
    return 0
  fi
  command -v debootstrap >/dev/null || {
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
  }
  mkdir -p "$lane_dir"
  if [ ! -x "$root/usr/bin/apt-get" ]; then
    echo "torch2: creating the Debian 13 root in $root (about a minute)" >&2
    rm -rf "$root"
    debootstrap --variant=minbase trixie "$root" "$mirror" >"$lane_dir/debootstrap.log" 2>&1 || {
      tail -20 "$lane_dir/debootstrap.log" >&2
      exit 1
    }
  fi
  echo "torch2: installing packages in the root" >&2
  in_root apt-get update -qq
  in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    $packages >"$lane_dir/apt.log" 2>&1 || {
    tail -20 "$lane_dir/apt.log" >&2
    exit 1
  }
  echo "$packages" >"$stamp"
}

# Runs a command in the root with the checkout mounted at its own path. The environment is
# rebuilt: the lane's own PATH and HOME, plus the caller's OPWEAVE_* switches (not its build
# folders: the lane has its own), CMD, CI, JOBS and TERM.
in_root() {
  local vars=(HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 OPWEAVE_TORCH_LANE=torch2)
  local name
  while IFS= read -r name; do
    case "$name" in
      OPWEAVE_BUILD_DIR | OPWEAVE_AUTOCOMPARE_BUILD_DIR | OPWEAVE_TORCH_LANE) ;;
      OPWEAVE_* | CMD | CI | JOBS | TERM) vars+=("$name=${!name}") ;;
    esac
  done < <(compgen -e)
  unshare --mount --propagation private -- bash -euc '
    root="$1"; src="$2"; shift 2
    mount -t proc proc "$root/proc"
    mount -t sysfs sysfs "$root/sys"
    mount --rbind /dev "$root/dev"
    mkdir -p "$root$src"
    mount --bind "$src" "$root$src"
    cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
    exec chroot "$root" /usr/bin/env -i -C "$src" "$@"
  ' bash "$root" "$here" "${vars[@]}" "$@"
}

case "${1:-}" in
  ensure) ensure ;;
  run)
    shift
    ensure
    in_root "$@"
    ;;
  *)
    echo "usage: $0 ensure | run CMD [ARG...]" >&2
    exit 2
    ;;
esac
