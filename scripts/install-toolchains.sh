#!/usr/bin/env bash
# install-toolchains.sh: install the native toolchains qrita's GPU backends
# need, on Debian 12 (bookworm). Idempotent: what is already there is left
# alone, and a machine that has everything is not touched (no apt-get update).
#
#   scripts/install-toolchains.sh [base|cuda|hip|all]...     (default: all)
#
#   base  gcc, g++, make            cgo, `go test -race`, the Makefile
#   cuda  nvidia-cuda-toolkit (nvcc 11.8, CUB, static cudart; Debian non-free),
#         g++-11 (nvcc 11.8's host compiler), cmake, ninja-build
#   hip   hipcc, libamdhip64-dev, rocm-device-libs, libamd-comgr-dev (ROCm 5.2,
#         Debian main; clang-15 is the HIP compiler), librocprim-dev (the sort
#         baseline's segmented radix sort), cmake, ninja-build, and the
#         /usr/lib/cmake/{hip-lang,hip} links CMake's HIP language looks for
#   all   base + cuda + hip
#
# Run as root (or with sudo available). Needs no stdin. README.md ("Building
# the GPU backends") says what each piece is for.
set -euo pipefail

log() { printf 'install-toolchains: %s\n' "$*"; }
die() { printf 'install-toolchains: error: %s\n' "$*" >&2; exit 1; }

usage() {
	sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
}

# --- arguments -------------------------------------------------------------
want_base=0 want_cuda=0 want_hip=0
[ "$#" -eq 0 ] && set -- all
for arg in "$@"; do
	case "$arg" in
	base) want_base=1 ;;
	cuda) want_base=1 want_cuda=1 ;;
	hip) want_base=1 want_hip=1 ;;
	all) want_base=1 want_cuda=1 want_hip=1 ;;
	-h | --help) usage; exit 0 ;;
	*) usage >&2; die "unknown component '$arg'" ;;
	esac
done

# --- privileges ------------------------------------------------------------
SUDO=()
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null 2>&1 || die "run as root (or install sudo)"
	SUDO=(sudo -n)
fi
as_root() { "${SUDO[@]}" "$@"; }

export DEBIAN_FRONTEND=noninteractive

# --- platform --------------------------------------------------------------
os_id=unknown os_ver=unknown
if [ -r /etc/os-release ]; then
	# shellcheck disable=SC1091
	. /etc/os-release
	os_id="${ID:-unknown}" os_ver="${VERSION_ID:-unknown}"
fi
command -v apt-get >/dev/null 2>&1 || die "apt-get not found: this script supports Debian 12 only (found $os_id $os_ver)"
if [ "$os_id" != debian ] || [ "$os_ver" != 12 ]; then
	log "warning: written for Debian 12, this is $os_id $os_ver; trying anyway"
fi

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

# --- what is wanted --------------------------------------------------------
pkgs=()
[ "$want_base" = 1 ] && pkgs+=(gcc g++ make)
[ "$want_cuda" = 1 ] && pkgs+=(nvidia-cuda-toolkit g++-11 cmake ninja-build)
[ "$want_hip" = 1 ] && pkgs+=(hipcc libamdhip64-dev rocm-device-libs libamd-comgr-dev librocprim-dev cmake ninja-build)

# de-duplicate, keeping order
uniq=()
for p in "${pkgs[@]}"; do
	case " ${uniq[*]-} " in *" $p "*) continue ;; esac
	uniq+=("$p")
done
pkgs=("${uniq[@]}")

missing=()
for p in "${pkgs[@]}"; do
	installed "$p" || missing+=("$p")
done

did=()
APT_ETC=${QRITA_APT_ETC:-/etc/apt} # overridable only to test enable_nonfree

# --- Debian non-free (nvidia-cuda-toolkit lives there) ----------------------
# Adds "contrib non-free non-free-firmware" to every Components: line of the
# deb822 sources and to every "deb ... main" line of a classic sources.list.
# Backups go outside sources.list.d, where apt would complain about them.
backup() {
	local dir=${QRITA_APT_BACKUP:-/var/backups}
	[ -d "$dir" ] || return 0
	as_root cp "$1" "$dir/$(basename "$1").qrita-bak"
	log "backup: $dir/$(basename "$1").qrita-bak"
}

# add_components FILE LINE_REGEX: appends contrib, non-free and
# non-free-firmware to the lines of FILE that match LINE_REGEX (an awk
# regex) and lack them; sets changed=1 when it rewrites FILE.
add_components() {
	local f=$1 match=$2 tmp
	tmp="$(mktemp)"
	awk -v match_re="$match" '$0 ~ match_re {
		line = $0
		n = split("contrib non-free non-free-firmware", want, " ")
		for (i = 1; i <= n; i++) if ((" " line " ") !~ (" " want[i] " ")) line = line " " want[i]
		print line; next
	} { print }' "$f" >"$tmp"
	if cmp -s "$tmp" "$f"; then
		rm -f "$tmp"
		return 0
	fi
	backup "$f"
	as_root cp "$tmp" "$f"
	rm -f "$tmp"
	log "enabled contrib/non-free in $f"
	changed=1
}

enable_nonfree() {
	local changed=0 f
	for f in "$APT_ETC"/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		add_components "$f" '^Components:'
	done
	for f in "$APT_ETC"/sources.list "$APT_ETC"/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		add_components "$f" '^deb(-src)?[ \t].*[ \t]main([ \t]|$)'
	done
	[ "$changed" = 1 ] && did+=("enabled Debian non-free")
	return 0
}

if [ "${#missing[@]}" -gt 0 ]; then
	log "missing packages: ${missing[*]}"
	case " ${missing[*]} " in
	*" nvidia-cuda-toolkit "*) [ "$os_id" = debian ] && enable_nonfree ;;
	esac
	log "apt-get update"
	as_root apt-get update -q
	log "apt-get install ${missing[*]}"
	as_root apt-get install -y -q --no-install-recommends "${missing[@]}"
	did+=("installed ${missing[*]}")
else
	log "all wanted packages already installed: ${pkgs[*]}"
fi

# --- CMake HIP language quirks on Debian 12 --------------------------------
# CMake looks for hip-lang-config.cmake under <prefix>/lib/cmake; Debian
# puts it in the multiarch directory.
if [ "$want_hip" = 1 ]; then
	multi=/usr/lib/x86_64-linux-gnu/cmake
	for d in hip-lang hip; do
		[ -d "$multi/$d" ] || die "$multi/$d not found after installing the HIP packages"
		link=/usr/lib/cmake/$d
		if [ "$(readlink "$link" 2>/dev/null || true)" = "$multi/$d" ]; then
			continue
		fi
		[ -e "$link" ] && [ ! -L "$link" ] && die "$link exists and is not a symlink; not touching it"
		as_root mkdir -p /usr/lib/cmake
		as_root ln -sfn "$multi/$d" "$link"
		log "linked $link -> $multi/$d"
		did+=("linked $link")
	done
fi

# --- verify ----------------------------------------------------------------
need_cmd() { command -v "$1" >/dev/null 2>&1 || die "$1 not on PATH after install"; }
if [ "$want_base" = 1 ]; then
	for c in gcc g++ make; do need_cmd "$c"; done
	log "gcc:    $(gcc -dumpfullversion)"
fi
if [ "$want_cuda" = 1 ]; then
	for c in nvcc g++-11 cmake ninja; do need_cmd "$c"; done
	[ -f /usr/lib/x86_64-linux-gnu/libcudart_static.a ] || die "libcudart_static.a missing"
	log "nvcc:   $(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')"
	log "g++-11: $(g++-11 -dumpfullversion)"
fi
if [ "$want_hip" = 1 ]; then
	for c in hipcc clang++-15 cmake ninja; do need_cmd "$c"; done
	[ -d /usr/lib/x86_64-linux-gnu/amdgcn/bitcode ] || die "ROCm device libs (amdgcn/bitcode) missing"
	[ -f /usr/include/rocprim/rocprim.hpp ] || die "rocPRIM headers (librocprim-dev) missing"
	log "hipcc:  $(HIP_PLATFORM=amd hipcc --version 2>/dev/null | sed -n 's/^HIP version: //p' | head -n1)"
	log "clang:  $(clang++-15 --version | head -n1)"
fi
if [ "$want_cuda" = 1 ] || [ "$want_hip" = 1 ]; then
	log "cmake:  $(cmake --version | head -n1 | awk '{print $3}'), ninja $(ninja --version)"
fi

if [ "${#did[@]}" -eq 0 ]; then
	log "nothing to do: everything was already in place"
else
	for d in "${did[@]}"; do log "done: $d"; done
fi
