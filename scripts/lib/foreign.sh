# shellcheck shell=bash
# foreign.sh: another architecture's root trees, here.  Sourced; needs
# $top.
#
#   foreign_enable ARCH  make ARCH's programs run here through
#                        qemu-user-static (a tree's maintainer scripts,
#                        its compiler, dpkg in a chroot): installs it with
#                        qemu-system-arm, which boots such a tree, mounts
#                        binfmt_misc and enables ARCH's entry (its F flag
#                        means a chroot needs no copy of the emulator).
#                        Sets foreign to mmdebstrap's option for ARCH,
#                        empty for the host's own, where it does nothing
#                        else.  Call it every time: binfmt_misc may not be
#                        mounted after a reboot.  Root.
# shellcheck disable=SC2034,SC2154 # top is the caller's; foreign is for it
foreign_enable() {
	local arch=$1
	foreign=()
	[ "$arch" != "$(dpkg --print-architecture)" ] || return 0
	"$top/scripts/deps-install" --only qemu-user-static binfmt-support \
		arch-test qemu-system-arm >&2
	[ -e /proc/sys/fs/binfmt_misc/register ] ||
		mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
	[ -e "/proc/sys/fs/binfmt_misc/qemu-${arch/arm64/aarch64}" ] ||
		update-binfmts --enable "qemu-${arch/arm64/aarch64}"
	foreign=(--arch="$arch")
}
