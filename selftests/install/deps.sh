#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh: scripts/deps-install and make test-sanitize on the package
# archive's bad days, with apt-get, dpkg and dpkg-query replaced on PATH by
# stand-ins that play the archive (nothing is installed for real).  An
# update that fails once is tried again and the install goes on; a
# package nobody can install is named and fails the install; the i386
# toolchain of the -m32 part, when the archive cannot serve it, makes that
# part NOT RUN (said, with the archive's error) without failing anything.
# Its sets follow the machine's architecture (QEMU, kernel flavour), and
# `make deps`'s build set holds no part of the test rig.  Prints TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. selftests/install/tap.sh

work=$top/build/selftests/deps
rm -rf "$work"
mkdir -p "$work/bin"
trap 'rm -rf "$work"' EXIT
state=$work/state

# The archive's words on the day this was written.
sync_error='E: Failed to fetch http://archive.invalid/debian-security/dists/bookworm-security/main/binary-i386/Packages.xz  File has unexpected size (371952 != 372316). Mirror sync in progress?'

# apt-get: "update" fails while $state/update-fails holds a count above 0
# (or "always"); "install" finds nothing before a successful update when
# $state/needs-update exists, and never installs what $state/uninstallable
# lists.  Each call is logged in $state/apt.log.
cat >"$work/bin/apt-get" <<EOF
#!/bin/bash
state=$state
EOF
cat >>"$work/bin/apt-get" <<'EOF'
echo "$*" >>"$state/apt.log"
args=() sim=0
while [ $# -gt 0 ]; do
	case $1 in
	-o) shift ;;
	-s) sim=1 ;;
	-*) ;;
	*) args+=("$1") ;;
	esac
	shift
done
case ${args[0]} in
update)
	n=$(cat "$state/update-fails" 2>/dev/null || echo 0)
	if [ "$n" = always ] || [ "$n" -gt 0 ]; then
		[ "$n" = always ] || echo $((n - 1)) >"$state/update-fails"
		echo "Err:6 http://archive.invalid bookworm-security/main i386 Packages"
		echo "$SYNC_ERROR"
		echo "E: Some index files failed to download. They have been ignored, or old ones used instead."
		exit 100
	fi
	touch "$state/updated"
	;;
install)
	pkgs=("${args[@]:1}")
	if [ -e "$state/needs-update" ] && [ ! -e "$state/updated" ]; then
		echo "E: Unable to locate package ${pkgs[0]}"
		exit 100
	fi
	bad=0
	for p in "${pkgs[@]}"; do
		if grep -qxF "$p" "$state/uninstallable" 2>/dev/null; then
			echo " $p : Depends: linux-libc-dev:i386 but it is not going to be installed"
			bad=1
		fi
	done
	if [ "$bad" = 1 ]; then
		echo "E: Unable to correct problems, you have held broken packages."
		exit 100
	fi
	[ "$sim" = 1 ] || printf '%s\n' "${pkgs[@]}" >>"$state/installed"
	;;
esac
exit 0
EOF
# dpkg-query: the packages of $state/missing are missing until installed;
# any other is asked of the real dpkg-query.
cat >"$work/bin/dpkg-query" <<EOF
#!/bin/bash
state=$state
real=$(command -v dpkg-query)
EOF
cat >>"$work/bin/dpkg-query" <<'EOF'
p=${!#}
if grep -qxF "$p" "$state/missing" 2>/dev/null; then
	grep -qxF "$p" "$state/installed" 2>/dev/null || exit 1
	echo installed
	exit 0
fi
exec "$real" "$@"
EOF
# dpkg: a machine of architecture $state/arch (default amd64) whose
# foreign architectures are $state/archs.
cat >"$work/bin/dpkg" <<EOF
#!/bin/bash
state=$state
EOF
cat >>"$work/bin/dpkg" <<'EOF'
case $1 in
--print-architecture) cat "$state/arch" 2>/dev/null || echo amd64 ;;
--print-foreign-architectures) cat "$state/archs" 2>/dev/null ;;
--add-architecture) echo "$2" >>"$state/archs" ;;
*) echo "dpkg stand-in: $*" >&2; exit 2 ;;
esac
EOF
printf '#!/bin/sh\n[ "$1" = -u ] && echo 0 && exit 0\nexec /usr/bin/id "$@"\n' >"$work/bin/id"
chmod +x "$work"/bin/*

# archive STATE-LINES...: a fresh archive; each argument "file=content".
archive() {
	local kv
	rm -rf "$state"
	mkdir -p "$state"
	for kv in "$@"; do
		# shellcheck disable=SC2086 # a list of words, one a line
		printf '%s\n' ${kv#*=} >>"$state/${kv%%=*}"
	done
}

# deps ARGS...: scripts/deps-install with the stand-ins, no pauses; its
# output in $work/out, its status returned.
deps() {
	PATH="$work/bin:$PATH" SYNC_ERROR=$sync_error ARC4_APT_PAUSE=0 \
		ARC4_NOT_RUN_DIR=$work/not-run \
		scripts/deps-install "$@" >"$work/out" 2>&1
}
updates() { grep -cw update "$state/apt.log"; }
has() { grep -qxF "$1" "$state/installed" 2>/dev/null; }

tap_plan 7

update_fails_once() {
	archive missing="arc4test-a arc4test-b" needs-update=1 update-fails=1
	deps --only arc4test-a arc4test-b || { cat "$work/out"; return 1; }
	has arc4test-a && has arc4test-b || { echo "not installed"; cat "$work/out"; return 1; }
	[ "$(updates)" = 2 ] || { echo "apt-get update ran $(updates) times, expected 2"; return 1; }
	grep -q 'try 1 of 3' "$work/out" || { echo "no word of the retry:"; cat "$work/out"; return 1; }
}
tap_check "an apt-get update that fails once is tried again and the install completes" update_fails_once

nobody_can() {
	archive missing="arc4test-a arc4test-gone" update-fails=always uninstallable=arc4test-gone
	if deps --only arc4test-a arc4test-gone; then
		echo "exit 0 with a package missing"; cat "$work/out"; return 1
	fi
	has arc4test-a || { echo "the installable package was not installed"; cat "$work/out"; return 1; }
	grep -qx "arc4: cannot install from Debian's archive: arc4test-gone" "$work/out" ||
		{ echo "no message naming exactly arc4test-gone:"; cat "$work/out"; return 1; }
	grep -q 'Mirror sync in progress' "$work/out" ||
		{ echo "the archive's error is not shown:"; cat "$work/out"; return 1; }
	[ "$(updates)" = 3 ] || { echo "apt-get update ran $(updates) times, expected 3"; return 1; }
}
tap_check "a package the archive cannot serve is named, the others installed, the status 1" nobody_can

m32_archive() {
	archive missing="arc4test-multilib arc4test-dev:i386" update-fails=always \
		uninstallable="arc4test-dev:i386 $*"
}
optional_not_run() {
	m32_archive
	deps --optional m32 arc4test-multilib arc4test-dev:i386 ||
		{ echo "status $? for an optional part"; cat "$work/out"; return 1; }
	grep -qx i386 "$state/archs" || { echo "i386 not added to dpkg's architectures"; return 1; }
	has arc4test-multilib || { echo "the amd64 package was not installed"; cat "$work/out"; return 1; }
	grep -q 'NOT RUN: m32: the archive cannot serve arc4test-dev:i386' "$work/not-run/m32" &&
		grep -q 'Mirror sync in progress' "$work/not-run/m32" ||
		{ echo "record:"; cat "$work/not-run/m32"; return 1; }
	grep -q 'NOT RUN: m32' "$work/out" || { echo "not said:"; cat "$work/out"; return 1; }
	# Its amd64 package is not optional.
	m32_archive arc4test-multilib
	if deps --optional m32 arc4test-multilib arc4test-dev:i386; then
		echo "exit 0 without the part's amd64 package"; cat "$work/out"; return 1
	fi
	# The archive mended: the part's record goes.
	archive missing="arc4test-dev:i386" archs=i386
	deps --optional m32 arc4test-dev:i386 || { cat "$work/out"; return 1; }
	[ ! -e "$work/not-run/m32" ] || { echo "the NOT RUN record outlived a good install"; return 1; }
}
tap_check "an optional part's i386 packages the archive cannot serve: NOT RUN, status 0" optional_not_run

# make test-sanitize SANITIZE=m32 on that archive (its build, `all`, taken
# as done): the part is NOT RUN, loudly, and the run passes.
sanitize_m32() {
	local log=$work/sanitize.log rc
	archive missing="libssl-dev:i386 liburing-dev:i386" update-fails=always \
		uninstallable="libssl-dev:i386 liburing-dev:i386"
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL PATH="$work/bin:$PATH" \
		SYNC_ERROR="$sync_error" ARC4_APT_PAUSE=0 \
		ARC4_NOT_RUN_DIR="$work/not-run" SANITIZE_RESULTS="$work/results" \
		make -o all -o selftests test-sanitize SANITIZE=m32 >"$log" 2>&1
	rc=$?
	[ "$rc" = 0 ] || { echo "make test-sanitize: status $rc"; tail -n 30 "$log"; return 1; }
	grep -q '^NOT RUN: m32: the archive cannot serve libssl-dev:i386 liburing-dev:i386' "$log" &&
		grep -q 'Mirror sync in progress' "$log" ||
		{ echo "no NOT RUN line with the archive's error:"; tail -n 30 "$log"; return 1; }
	[ "$(tail -n 1 "$log")" = "0 passed, 0 failed, 0 skipped" ] ||
		{ echo "last line: $(tail -n 1 "$log")"; return 1; }
	# The NOT RUN line is in the summary, before its closing line.
	tail -n 3 "$log" | grep -q '^NOT RUN: m32' ||
		{ echo "the summary has no NOT RUN line:"; tail -n 5 "$log"; return 1; }
}
if [ ! -e build/selftests/shim/ref-static ]; then
	tap_skip "make test-sanitize SANITIZE=m32 without its i386 packages: NOT RUN, status 0" \
		"build the tests first (make selftests)"
else
	tap_check "make test-sanitize SANITIZE=m32 without its i386 packages: NOT RUN, status 0" sanitize_m32
fi

# list ARCH ARGS...: deps-install --list ARGS on an ARCH machine, one line.
list() {
	archive arch="$1"
	shift
	PATH="$work/bin:$PATH" scripts/deps-install --list "$@" | tr '\n' ' '
}
# has_all LIST WORD...: each WORD is in LIST; lacks_all: none is.
has_all() { local w; for w in "${@:2}"; do [[ " $1" == *" $w "* ]] || { echo "no $w in: $1"; return 1; }; done; }
lacks_all() { local w; for w in "${@:2}"; do [[ " $1" != *" $w "* ]] || { echo "$w in: $1"; return 1; }; done; }
by_arch() {
	local a r
	a=$(list arm64) && r=$(list arm64 --vm) || return 1
	has_all "$a" qemu-system-arm linux-image-arm64 linux-headers-arm64 linux-source gcc &&
		lacks_all "$a" qemu-system-x86 linux-image-amd64 linux-headers-amd64 gcc-multilib &&
		has_all "$r" qemu-system-arm linux-image-arm64 &&
		lacks_all "$r" qemu-system-x86 linux-source || return 1
	a=$(list amd64) || return 1
	has_all "$a" qemu-system-x86 linux-image-amd64 linux-headers-amd64 gcc-multilib &&
		lacks_all "$a" qemu-system-arm linux-image-arm64
}
tap_check "the rig's packages follow the architecture: qemu-system-arm and -arm64 kernels on arm64" by_arch

build_set() {
	local b h
	b=$(list arm64 --build) || return 1
	h=$(uname -r)
	has_all "$b" gcc make pkg-config libelf-dev libcapstone-dev || return 1
	lacks_all "$b" qemu-system-arm qemu-system-x86 linux-image-arm64 linux-source \
		busybox-static mmdebstrap clang cargo || return 1
	# The headers: the running kernel's when present, else its package or
	# the flavour's.
	if [ -e "/lib/modules/$h/build/Makefile" ]; then
		lacks_all "$b" "linux-headers-$h" linux-headers-arm64
	else
		[[ " $b" == *" linux-headers-$h "* || " $b" == *" linux-headers-arm64 "* ]] ||
			{ echo "no kernel headers package in: $b"; return 1; }
	fi
	# make deps asks for that set.
	make -n -s deps | grep -x 'scripts/deps-install --build' >/dev/null ||
		{ echo "make deps runs: $(make -n -s deps)"; return 1; }
}
tap_check "make deps: the build set alone (compiler, headers, libelf, capstone), no rig" build_set

# A test of the stand-ins themselves: today's deps-install stopped at the
# first failed update; the stand-in's failure must be one apt sees as such.
stand_in_fails() {
	archive update-fails=1
	! PATH="$work/bin:$PATH" SYNC_ERROR=$sync_error apt-get update >/dev/null
}
tap_check "the stand-in apt-get update fails as the archive's does" stand_in_fails

tap_done
