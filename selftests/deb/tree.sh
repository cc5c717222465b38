#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tree.sh [RELEASE]: print the path of the Debian root tree that
# selftests/deb installs the packages into (a copy of it), building it
# first when it is missing, older than ARC4_TREE_DAYS days (default 7) or
# made from another package list.  RELEASE defaults to the host's own
# (bookworm); another one (trixie) also gets the packages' build
# dependencies, as selftests/deb builds them there.  RELEASE-arm64
# (bookworm-arm64, trixie-arm64) is that release's arm64 tree, built
# through qemu-user-static and binfmt_misc (scripts/release-tree's way),
# with the build dependencies too: arm64 packages are built in it.  The
# tree lives in ARC4_CACHE (default /var/cache/arc4) as deb-RELEASE, apart
# from scripts/release-tree's trees, and holds what a user's system would: the
# kernel and its headers, dkms (so that `apt-get install ./*.deb` finds
# its main dependency in place), man-db, pkg-config and the compiler, plus
# what scripts/vm-run needs to boot it.  Built with mmdebstrap from the
# archive the host's apt uses (scripts/release-tree's rule; ARC4_MIRROR
# overrides it).  Needs root.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
die() { echo "selftests/deb/tree.sh: $*" >&2; exit 1; }
host=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
release=$host
case "${1:-}" in
-h | --help) sed -n '4,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
"") ;;
-*) die "unknown option $1" ;;
*[!a-z0-9-]*) die "not a release name: $1" ;;
*) release=$1 ;;
esac
[ "$(id -u)" -eq 0 ] || die "needs root (mmdebstrap)"
suite=${release%%-*} arch=${release#"${release%%-*}"}
arch=${arch#-}
case "$arch" in
"") arch=amd64 ;;
arm64) ;;
*) die "not an architecture arc4 packages are built for: $arch" ;;
esac

packages=(
	"linux-image-$arch" "linux-headers-$arch" dkms
	kmod busybox-static mount util-linux procps xz-utils
	man-db
)
if [ "$release" = "$host" ]; then
	packages+=(pkg-config)
else
	# debian/control's Build-Depends.
	packages+=(pkgconf debhelper dh-dkms libelf-dev libcapstone-dev dh-python python3-dev criu)
	[ "$suite" = bookworm ] || packages+=(libcriu-dev)
fi
want=$(printf '%s\n' "${packages[@]}" | sort | tr '\n' ' ')
cache=${ARC4_CACHE:-/var/cache/arc4}
tree=$cache/deb-$release
stamp=$tree/.arc4-tree

fresh() {
	[ -e "$stamp" ] &&
		[ "$(sed -n 's/^packages=//p' "$stamp")" = "$want" ] &&
		[ -n "$(find "$stamp" -mtime -"${ARC4_TREE_DAYS:-7}")" ]
}

# A foreign tree's programs (its maintainer scripts here, the package build
# and dpkg in selftests/deb's chroots) run through qemu-user-static.
. "$top/scripts/lib/foreign.sh"
foreign_enable "$arch"
mkdir -p "$cache"
exec 9>"$cache/deb-$release.lock"
flock 9
if fresh; then
	echo "$tree"
	exit 0
fi

# The archive: release-tree's mirror(), taken from its source so that the
# two never disagree.
uri=${ARC4_MIRROR:-$(bash -c "
	die() { echo \"\$*\" >&2; exit 1; }
	$(sed -n '/^mirror() {/,/^}/p' "$top/scripts/release-tree")
	mirror")} || die "no archive URI"
new=$cache/.deb-$release.new
log=$cache/deb-$release.log
rm -rf "$new"
echo "selftests/deb: building the $release tree from $uri into $tree (log: $log)" >&2
start=$(date +%s)
# No initramfs: scripts/vm-run boots its own.
# A try that fails (an index caught mid-sync) is made again after a pause.
. "$top/scripts/lib/apt.sh"
build() {
	rm -rf "$new"
	mmdebstrap --variant=buildd --components=main "${foreign[@]}" \
		--include="$(echo "$want" | tr ' ' ,)" \
		--essential-hook='chroot "$1" dpkg-divert --quiet --local --rename --add /usr/sbin/update-initramfs &&
			mkdir -p "$1/usr/sbin" &&
			printf "#!/bin/sh\n# arc4: the VM boots its own initramfs\n" >"$1/usr/sbin/update-initramfs" &&
			chmod 755 "$1/usr/sbin/update-initramfs"' \
		"$suite" "$new" "$uri" >"$log" 2>&1
}
if ! apt_retry "mmdebstrap $release" build; then
	rm -rf "$new"
	tail -n 20 "$log" >&2
	die "building the $release tree failed; see $log"
fi
printf 'release=%s\nmirror=%s\npackages=%s\nbuilt=%s\n' "$release" "$uri" \
	"$want" "$(date -u +%FT%TZ)" >"$new/.arc4-tree"
rm -rf "$tree"
mv "$new" "$tree"
echo "selftests/deb: $release tree built in $(($(date +%s) - start)) s" >&2
echo "$tree"
