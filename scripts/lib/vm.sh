# shellcheck shell=bash
# scripts/lib/vm.sh: what scripts/vm-run and scripts/vmfork-test share.
# Sourced, after the caller has set $top (the repository) and defined die().
#
#   vm_dist             set dist, tree, release, arch, flavour from
#                       VM_DIST, VM_ARCH, VM_FLAVOUR and VM_ROOT: dist is ""
#                       for the host's own system, else
#                       RELEASE[-ARCH][-FLAVOUR] with tree its root tree
#                       (VM_ROOT, else scripts/release-tree's, built if
#                       missing or stale); arch is amd64 or arm64 (always a
#                       release tree: the host's root is amd64's)
#   vm_kernel           set kver, kernel, moddir, kdir, guest_moddir: the
#                       kernel of linux-image-amd64 (of the host, or of the
#                       release tree), or VM_KERNEL with VM_MODROOT's modules
#                       (with a release tree as /, its userland under that
#                       kernel: VM_ARCH=arm64 and scripts/debug-kernel
#                       --arch arm64)
#   vm_debug_kernel     whether vm_kernel's kernel is a debug kernel
#                       (scripts/debug-kernel: KASAN in its build's
#                       .config, or a release ending in -arc4debug)
#   vm_module           set ko, the arc4dev.ko to load (VM_KO, else
#                       kmod/arc4dev.ko, or build/dist/DIST/kmod/arc4dev.ko
#                       for a release; rebuilt when stale unless
#                       VM_MODULES=host)
#   modules_for M...    .ko paths under $moddir to insmod for the modules
#                       M..., dependencies first; built-in ones left out
#   module_copy P DIR   copy $moddir/P into DIR uncompressed; print its name
#   vm_qemu_base        set vm_qemu: QEMU, machine, accelerator, CPU, vCPUs
#                       and memory from VM_SMP, VM_MEM, VM_CPU, VM_ICOUNT,
#                       for $arch; vm_console, the kernel's console device
#   vm_busybox          print the busybox for the initramfs (the tree's for
#                       a foreign architecture)
#   vm_log_problems LOG print the lines of a console log that fail a run
#                       (WARN, BUG, oops, panic, sanitizer reports)
#   vm_died_booting LOG whether LOG's kernel failed with no module loaded
#                       (every "Modules linked in:" empty): a boot to try
#                       again
#   vm_gcov_put ROOT    with ARC4_GCOV_DIR set (scripts/coverage): give the
#                       initramfs at ROOT a /gcov-out, which its init runs
#                       last: arc4dev's gcov counters out of debugfs, onto
#                       the console as a base64 tar between two marker lines
#   vm_gcov_take LOG    with ARC4_GCOV_DIR set: those counters, out of a
#                       console log, into ARC4_GCOV_DIR (nothing of a dump
#                       cut short); then vm_gcov_strip LOG
#   vm_gcov_strip LOG   remove such a dump's lines from a console log (a run
#                       of base64 could spell a word vm_log_problems seeks)

# The variables set here are the caller's to use; $top is the caller's.
# shellcheck disable=SC2034,SC2154

vm_dist() {
	local host mark=$top/.arc4-dist
	host=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
	release=${VM_DIST:-$host}
	flavour=${VM_FLAVOUR:-}
	arch=${VM_ARCH:-amd64}
	# A release build (scripts/release-build's mirror of the sources)
	# boots its own release unless told otherwise.
	if [ -e "$mark" ] && [ -z "${VM_DIST:-}" ]; then
		release=$(sed -n 's/^release=//p' "$mark")
		flavour=$(sed -n 's/^flavour=//p' "$mark")
		arch=$(sed -n 's/^arch=//p' "$mark")
		arch=${arch:-amd64}
	fi
	# VM_DIST=trixie-arm64 is VM_DIST=trixie VM_ARCH=arm64.
	case "$release" in
	*-arm64) arch=arm64 release=${release%-arm64} ;;
	esac
	case "$flavour" in
	"" | rt) ;;
	*) die "VM_FLAVOUR=$flavour: the only flavour is rt" ;;
	esac
	case "$arch" in
	amd64 | arm64) ;;
	*) die "VM_ARCH=$arch: amd64 or arm64" ;;
	esac
	dist= tree=
	if [ "$release" = "$host" ] && [ "$arch" = amd64 ] && [ -z "$flavour" ] &&
		[ -z "${VM_ROOT:-}" ]; then
		return 0
	fi
	[ -z "${VM_KERNEL:-}" ] || [ -z "$flavour" ] ||
		die "VM_KERNEL and VM_FLAVOUR do not go together"
	dist=$release
	[ "$arch" = amd64 ] || dist+=-$arch
	dist+=${flavour:+-$flavour}
	if [ -n "${VM_ROOT:-}" ]; then
		# A root tree of the caller's (a copy or overlay of a release
		# tree, with packages installed, say): its kernel, its modules.
		[ -d "$VM_ROOT/boot" ] || die "VM_ROOT=$VM_ROOT has no /boot"
		tree=$(cd "$VM_ROOT" && pwd -P)
	else
		tree=${dist%-rt}
		tree=$("$top/scripts/release-tree" "$tree") || die "no ${dist%-rt} tree"
	fi
}

vm_kernel() {
	if [ -n "${VM_KERNEL:-}" ]; then
		[ -f "$VM_KERNEL" ] || die "VM_KERNEL=$VM_KERNEL is not a file"
		[ -n "${VM_MODROOT:-}" ] && [ -n "${VM_KO:-}" ] ||
			die "VM_KERNEL needs VM_MODROOT and VM_KO"
		kernel=$(readlink -f "$VM_KERNEL")
		vm_kernel_arch "$kernel" ||
			die "VM_KERNEL=$VM_KERNEL is not an ${arch:-amd64} kernel image"
		kver=$(ls "$VM_MODROOT/lib/modules" | head -n1)
		moddir=$(readlink -f "$VM_MODROOT/lib/modules/$kver")
		[ -n "$kver" ] && [ -e "$moddir/modules.dep" ] ||
			die "no modules under $VM_MODROOT/lib/modules"
		# The guest reaches them at the same path: through the host's
		# root, or with a release tree as / through the repository's
		# mount (or the working directory's).
		case "$moddir/" in
		"$top"/* | "$(pwd -P)"/*) ;;
		*) [ -z "${tree:-}" ] || die "VM_MODROOT=$VM_MODROOT: with a release tree, it must lie in $top or the working directory" ;;
		esac
		guest_moddir=$moddir
	else
		kver=$("$top/scripts/kver" ${tree:+--root "$tree"} \
			${flavour:+--flavour "$flavour"}) || die "no VM kernel"
		kernel=${tree:-}/boot/vmlinuz-$kver
		moddir=${tree:-}/lib/modules/$kver
		guest_moddir=/lib/modules/$kver
	fi
	kdir=$moddir/build
}

vm_debug_kernel() {
	[ -n "${VM_KERNEL:-}" ] || return 1
	grep -qx 'CONFIG_KASAN=y' "$kdir/.config" 2>/dev/null && return 0
	case "$kver" in *-arc4debug*) return 0 ;; esac
	return 1
}

vm_kernel_arch() {
	# Whether the kernel image $1 is one for $arch: an arm64 Image
	# ("ARM\x64" at 56) or an x86 bzImage ("HdrS" at 514).
	local off=514 magic=HdrS
	[ "${arch:-amd64}" = amd64 ] || off=56 magic=ARMd
	[ "$(dd if="$1" bs=1 skip="$off" count=4 2>/dev/null | tr -d '\0')" = "$magic" ]
}

vm_module() {
	local stale=
	local build=(make -s -C "$top" module KDIR="$kdir")
	ko=${VM_KO:-$top/kmod/arc4dev.ko}
	if [ -n "${dist:-}" ] && [ -z "${VM_KO:-}" ]; then
		ko=$top/build/dist/$dist/kmod/arc4dev.ko
		build=("$top/scripts/release-build" --quiet "$dist")
		# This is that release's build: its module is here, and its
		# sources are refreshed by the checkout it was mirrored from.
		if [ "$(sed -n 's/^name=//p' "$top/.arc4-dist" 2>/dev/null)" = "$dist" ]; then
			ko=$top/kmod/arc4dev.ko
			build=("$(sed -n 's/^origin=//p' "$top/.arc4-dist")/scripts/release-build" --quiet "$dist")
		fi
	fi
	if [ -n "${VM_KO:-}" ]; then
		[ -e "$ko" ] || die "VM_KO=$ko missing"
	elif [ ! -e "$ko" ]; then
		stale=1
	elif [ -n "$(find "$top/kmod" "$top/include/uapi" -newer "$ko" \( -name '*.[ch]' -o -name Kbuild \) 2>/dev/null)" ]; then
		stale=1
	elif [ "$(modinfo -F vermagic "$ko" | cut -d' ' -f1)" != "$kver" ]; then
		stale=1
	fi
	if [ -n "$stale" ] && [ "${VM_MODULES:-}" != host ]; then
		"${build[@]}" >&2 || die "module build failed"
	fi
}

modules_for() {
	# Print the .ko paths to insmod for each named module, dependencies
	# first, in the order modules.dep gives (it lists them nearest first).
	# A module built into the kernel (virtio_pci in 6.12) needs nothing.
	local m line dep deps i seen=" "
	for m in "$@"; do
		grep -qE "(^|/)$m\.ko$" "$moddir/modules.builtin" 2>/dev/null && continue
		line=$(grep -E "(^|/)$m\.ko(\.[a-z]+)?:" "$moddir/modules.dep") ||
			die "$m not in modules.dep"
		read -ra deps <<<"${line#*:}"
		for ((i = ${#deps[@]} - 1; i >= 0; i--)); do
			dep=${deps[i]}
			case "$seen" in *" $dep "*) continue ;; esac
			seen+="$dep "
			echo "$dep"
		done
		dep=${line%%:*}
		case "$seen" in *" $dep "*) continue ;; esac
		seen+="$dep "
		echo "$dep"
	done
}

module_copy() {
	# Copy the module $moddir/$1 into the directory $2, uncompressed (Debian
	# compresses modules since 6.12, busybox's insmod may not decompress),
	# and print the name it has there.
	local src=$moddir/$1 name
	name=$(basename "$1")
	case "$name" in
	*.ko.xz) name=${name%.xz}; xz -dc "$src" >"$2/$name" ;;
	*.ko.zst) name=${name%.zst}; zstd -qdc "$src" >"$2/$name" ;;
	*.ko.gz) name=${name%.gz}; gzip -dc "$src" >"$2/$name" ;;
	*) cp "$src" "$2/$name" ;;
	esac || die "cannot copy $src"
	echo "$name"
}

vm_qemu_base() {
	local smp=${VM_SMP:-2} accel=(-accel tcg) machine=(-machine pc)
	local qemu=qemu-system-x86_64 cpu=${VM_CPU:-max}
	if [ "${VM_ICOUNT:-0}" = 1 ]; then
		smp=1
		# shellcheck disable=SC2054 # one QEMU option, commas and all
		accel=(-accel tcg -icount shift=0,sleep=off)
	fi
	vm_console=ttyS0
	if [ "${arch:-amd64}" = arm64 ]; then
		# The virt board with a device tree: one PL011 UART (the
		# console), PCI for virtio.  -cpu max has NEON (chacha-neon);
		# its pointer authentication is QEMU's cheap one, not QARMA,
		# which would make every function return cost hundreds of
		# host instructions under TCG.
		qemu=qemu-system-aarch64 machine=(-machine virt)
		vm_console=ttyAMA0
		[ "$cpu" != max ] || cpu=max,pauth-impdef=on
	fi
	vm_qemu=("$qemu" -nodefaults -no-user-config -no-reboot
		"${machine[@]}" "${accel[@]}" -cpu "$cpu" -smp "$smp"
		-m "${VM_MEM:-1G}" -display none -monitor none)
}

vm_busybox() {
	if [ "${arch:-amd64}" = amd64 ]; then
		echo /bin/busybox
	else
		echo "$tree/bin/busybox"
	fi
}

# vm_log_problems LOG: the lines of a kernel log that fail a run (the
# guest's own ARC4-VM-PROBLEM lines among them).
vm_log_problems() {
	grep -nE 'WARNING:|BUG:|Oops|Kernel panic|general protection fault|UBSAN:|KASAN:|unreferenced object|ARC4-VM-PROBLEM:|Call Trace:' "$1"
}

# vm_died_booting LOG: the kernel of LOG failed with no module loaded at
# all (every trace's "Modules linked in:" is empty), so before virtio, the
# disks or anything of arc4: the emulator's or the kernel's failure while
# booting (Debian 13's kernels under TCG, an int3 oops in sched_clock_cpu
# in the first seconds, some boots of a busy evening), not the test's.
vm_died_booting() {
	vm_log_problems "$1" >/dev/null &&
		grep -q 'Modules linked in:' "$1" &&
		! grep -qE 'Modules linked in:[[:space:]]*[^[:space:]]' "$1"
}

vm_gcov_put() {
	[ -n "${ARC4_GCOV_DIR:-}" ] || return 0
	cat >"$1/gcov-out" <<'EOF'
#!/bin/busybox sh
# arc4dev's gcov counters onto the console, each line of the base64 tar
# marked, the kernel's messages held back meanwhile (scripts/lib/vm.sh:
# vm_gcov_take reads them).
mount -t debugfs none /sys/kernel/debug 2>/dev/null
mkdir -p /gcov
for f in $(find /sys/kernel/debug/gcov -name '*.gcda' -path '*/kmod/*'); do
	cat "$f" >"/gcov/${f##*/}"
done
level=$(cut -f1 /proc/sys/kernel/printk)
dmesg -n 1
tar -C /gcov -cf - . | gzip | base64 | sed 's/^/ARC4-GCOV: /' >/dev/console
echo "ARC4-GCOV-END" >/dev/console
dmesg -n "$level"
EOF
	chmod +x "$1/gcov-out"
}

vm_gcov_take() {
	local tmp
	[ -n "${ARC4_GCOV_DIR:-}" ] || return 0
	grep -q '^ARC4-GCOV-END' "$1" || return 1
	tmp=$(mktemp -d) || return 1
	local rc=0
	sed -n 's/^ARC4-GCOV: //p' "$1" | tr -d '\r' | base64 -d |
		tar -xzf - -C "$tmp" &&
		mkdir -p "$ARC4_GCOV_DIR" && cp "$tmp"/* "$ARC4_GCOV_DIR"/ || rc=1
	rm -rf "$tmp"
	vm_gcov_strip "$1"
	return $rc
}

vm_gcov_strip() {
	sed -i '/^ARC4-GCOV: /d; /^ARC4-GCOV-END/d' "$1"
}
