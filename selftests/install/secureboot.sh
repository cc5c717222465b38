#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# secureboot.sh: a kernel that checks module signatures refuses arc4dev
# unsigned or signed by a key it does not trust, and loads it signed by a
# key it trusts.  Prints TAP; run by `make test-secureboot`, not by
# `make test` (the kernel's first build takes a long while).
#
# The kernel is scripts/debug-kernel's modsig flavour: its build made a
# signing key (certs/signing_key.pem) that it trusts.  On the host, as root,
# four copies of arc4dev built against that tree: one unsigned; one signed
# with the kernel's key by the kernel's scripts/sign-file; two built and
# signed by dkms in trees of its own, with the kernel's key as its machine
# owner key (as a key enrolled with mokutil is trusted) and with the key
# dkms makes itself when it has none (one not yet enrolled).  Each signer
# as modinfo reads it must be the certificate's name as openssl reads it.
# The test VM boots the host's Debian kernel with lockdown=integrity (as
# under Secure Boot), where `modprobe arc4dev` must fail with "Operation
# not permitted" and the kernel's "Lockdown:" notice; then that modsig
# kernel three times, with the unsigned copy as the module modprobe finds:
#   no option             (signatures checked, not required: a machine
#                         without Secure Boot): the unsigned copy and the
#                         one signed with dkms's own key load, taint the
#                         kernel (E), and the kernel says so
#   module.sig_enforce=1  (what CONFIG_MODULE_SIG_FORCE and the kernels
#                         that enforce signatures under Secure Boot do):
#                         refused with EKEYREJECTED, "Key was rejected by
#                         service"
#   lockdown=integrity    (what Debian's kernels do when booted with Secure
#                         Boot): refused with EPERM, "Operation not
#                         permitted", and the kernel's "Lockdown:" notice
# and in each the two copies signed with the kernel's key must load
# without taint E and /dev/arc4 serve bytes.
#
#   selftests/install/secureboot.sh
#   selftests/install/secureboot.sh --guest MODE SIGNED ENROLLED OTHER  (in the VM)
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. selftests/install/tap.sh

marker='~Module signature appended~'

# --- in the VM ----------------------------------------------------------------

# The kernel log since the line count $1.
log_since() { dmesg | tail -n +"$(($1 + 1))"; }

# refused DESC ERRTEXT KLOG CMD...: CMD fails, prints ERRTEXT, leaves
# arc4dev unloaded, and the kernel logs KLOG.
refused() {
	local desc=$1 err=$2 klog=$3 n out
	shift 3
	n=$(dmesg | wc -l)
	if out=$("$@" 2>&1); then
		tap_fail "$desc: $* succeeded"
		rmmod arc4dev 2>/dev/null
		return
	fi
	tap_diag "$out"
	case "$out" in
	*"$err"*) tap_ok "$desc: \"$err\"" ;;
	*) tap_fail "$desc: \"$err\"" ;;
	esac
	if [ -e /sys/module/arc4dev ]; then
		tap_fail "$desc: arc4dev is not loaded"
		rmmod arc4dev
	else
		tap_ok "$desc: arc4dev is not loaded"
	fi
	out=$(log_since "$n")
	tap_diag "kernel: $out"
	case "$out" in
	*"$klog"*) tap_ok "$desc: the kernel logs \"$klog\"" ;;
	*) tap_fail "$desc: the kernel logs \"$klog\"" ;;
	esac
}

# taints DESC CMD...: where nothing requires signatures, CMD loads a module
# whose signature does not verify, and it taints the kernel: E in the
# module's taint flags, and the kernel says so (once per boot: only the
# first caller looks for the message).
taints() {
	local desc=$1 n out klog="arc4dev: module verification failed: signature and/or required key missing - tainting kernel"
	shift
	n=$(dmesg | wc -l)
	if ! "$@"; then
		tap_fail "$desc: $* loads it"
		return
	fi
	tap_ok "$desc: $* loads it"
	case "$(cat /sys/module/arc4dev/taint)" in
	*E*) tap_ok "$desc: arc4dev carries taint E" ;;
	*) tap_fail "$desc: arc4dev carries taint E, not \"$(cat /sys/module/arc4dev/taint)\"" ;;
	esac
	if [ "$tainted_once" = 0 ]; then
		tainted_once=1
		out=$(log_since "$n")
		tap_diag "kernel: $out"
		case "$out" in
		*"$klog"*) tap_ok "$desc: the kernel logs \"$klog\"" ;;
		*) tap_fail "$desc: the kernel logs \"$klog\"" ;;
		esac
	fi
	rmmod arc4dev
}
tainted_once=0

# insmod_deps KO: insmod KO after the modules it depends on, which insmod
# does not load itself.
insmod_deps() {
	local deps
	deps=$(modinfo -F depends "$1" | tr , ' ')
	# shellcheck disable=SC2086 # a list of names
	{ [ -z "$deps" ] || modprobe -a $deps; } && insmod "$1"
}

# signed_loads WHO KO: KO, signed by WHO with the kernel's key, loads
# without the unsigned-module taint and serves bytes.
signed_loads() {
	local who=$1 ko=$2 n taint a b
	n=$(dmesg | wc -l)
	if ! insmod_deps "$ko"; then
		tap_fail "$who-signed arc4dev.ko loads"
		return
	fi
	tap_ok "$who-signed arc4dev.ko loads"
	# O (out of tree) it has in any case; E marks a signature not verified.
	taint=$(cat /sys/module/arc4dev/taint)
	case "$taint" in
	*E*) tap_fail "$who-signed: arc4dev does not carry taint E: it has \"$taint\"" ;;
	*) tap_ok "$who-signed: arc4dev does not carry taint E (it has \"$taint\")" ;;
	esac
	if log_since "$n" | grep -q 'verification failed\|is rejected\|Lockdown'; then
		tap_fail "$who-signed: the kernel logs no signature complaint"
		tap_diag "$(log_since "$n")"
	else
		tap_ok "$who-signed: the kernel logs no signature complaint"
	fi
	a=$(head -c 32 /dev/arc4 | od -An -tx1 | tr -d ' \n')
	b=$(head -c 32 /dev/arc4 | od -An -tx1 | tr -d ' \n')
	if [ ${#a} -eq 64 ] && [ ${#b} -eq 64 ] && [ "$a" != "$b" ]; then
		tap_ok "$who-signed: /dev/arc4 serves 32 bytes, different on each open"
	else
		tap_fail "$who-signed: /dev/arc4 serves 32 bytes, different on each open (got '$a', '$b')"
	fi
	rmmod arc4dev
}

guest() {
	local mode=$1 signed=${2:-} enrolled=${3:-} other=${4:-} err klog_unsigned klog_other
	case "$mode" in
	enforce)
		err="Key was rejected by service"
		klog_unsigned="Loading of unsigned module is rejected"
		klog_other="Loading of module with unavailable key is rejected"
		;;
	lockdown)
		err="Operation not permitted"
		klog_unsigned="Lockdown: modprobe: unsigned module loading is restricted; see man kernel_lockdown.7"
		klog_other="Lockdown: insmod: unsigned module loading is restricted"
		;;
	none)
		if [ -e /sys/module/arc4dev ]; then
			tap_fail "arc4dev is not loaded at the start"
			exit 1
		fi
		taints "unsigned" modprobe arc4dev
		taints "DKMS-signed with a key not enrolled" insmod_deps "$other"
		signed_loads "sign-file" "$signed"
		signed_loads "DKMS" "$enrolled"
		tap_plan "$tap_n"
		tap_done
		return
		;;
	debian)
		# The test VM's own kernel, Debian's, locked down as under Secure
		# Boot: only its refusal can be checked, as only Debian's key
		# signs what it loads.
		refused "Debian's kernel, unsigned, modprobe arc4dev" "Operation not permitted" \
			"Lockdown: modprobe: unsigned module loading is restricted; see man kernel_lockdown.7" \
			modprobe arc4dev
		tap_plan "$tap_n"
		tap_done
		return
		;;
	*) echo "secureboot.sh: unknown mode $mode" >&2; exit 2 ;;
	esac
	if [ -e /sys/module/arc4dev ]; then
		tap_fail "arc4dev is not loaded at the start"
		exit 1
	fi
	refused "unsigned, modprobe arc4dev" "$err" "$klog_unsigned" modprobe arc4dev
	refused "DKMS-signed with a key not enrolled, insmod" "$err" "$klog_other" insmod "$other"
	signed_loads "sign-file" "$signed"
	signed_loads "DKMS" "$enrolled"
	tap_plan "$tap_n"
	tap_done
}

if [ "${1:-}" = --guest ]; then
	shift
	guest "$@"
	exit
fi

# --- on the host --------------------------------------------------------------

if [ "$(id -u)" -ne 0 ]; then
	tap_plan 1
	tap_skip "module signatures on the modsig kernel" "needs root (vm-run)"
	exit 0
fi

work=$top/build/selftests/install/secureboot
rm -rf "$work"
mkdir -p "$work"/{unsigned,signed,enrolled,other}
t0=$(date +%s)

# boot MODE APPEND [debian]: the test VM on the modsig kernel (on the
# host's Debian kernel with "debian"), the guest half of this script in it.
boot() {
	local mode=$1 append=$2 vmrc env=()
	if [ "$tap_broken" = 1 ]; then
		tap_skip "the VM booted with ${append:-no option}" "an earlier step failed"
		return
	fi
	if [ "${3:-}" != debian ]; then
		env=(VM_KERNEL="$(scripts/debug-kernel --flavour modsig --kernel)"
			VM_MODROOT="$(scripts/debug-kernel --flavour modsig --modroot)"
			VM_KO="$work/unsigned/arc4dev.ko")
	fi
	env "${env[@]}" VM_LOAD=0 VM_APPEND="$append" VM_LOG="$work/console-$mode.log" \
		scripts/vm-run selftests/install/secureboot.sh --guest "$mode" \
		"$work/signed/arc4dev.ko" "$work/enrolled/arc4dev.ko" "$work/other/arc4dev.ko" \
		>"$work/vm-$mode.out" 2>"$work/vm-$mode.err" </dev/null
	vmrc=$?
	tap_relay "$work/vm-$mode.out"
	if [ "$vmrc" -eq 0 ] && [ "$tap_relayed" -gt 0 ]; then
		tap_ok "the VM booted with ${append:-no option} and reported $tap_relayed results"
	else
		tap_fail "the VM booted with ${append:-no option} and reported $tap_relayed results"
		tap_diag "vm-run exit $vmrc" "$(tail -n 20 "$work/vm-$mode.err")"
	fi
}
# Debian's own kernel first: it needs no kernel build.
boot debian lockdown=integrity debian

kernel_ready() {
	scripts/debug-kernel --flavour modsig >"$work/kernel.log" 2>&1 ||
		{ tail -n 20 "$work/kernel.log"; return 1; }
}
tap_step "the modsig kernel is built (scripts/debug-kernel --flavour modsig)" kernel_ready
[ "$tap_broken" = 1 ] && { tap_plan "$tap_n"; exit 1; }
kdir=$(scripts/debug-kernel --flavour modsig --kdir)
t1=$(date +%s)

module_builds() {
	scripts/debug-kernel --flavour modsig --module "$work/kmod" >"$work/module.log" 2>&1 ||
		{ cat "$work/module.log"; return 1; }
	cp "$work/kmod/kmod/arc4dev.ko" "$work/unsigned/"
	cp "$work/kmod/kmod/arc4dev.ko" "$work/signed/"
	cp "$work/kmod/kmod/arc4dev.ko" "$work/other/"
}
tap_step "arc4dev builds against the modsig kernel's tree" module_builds

# sign-file appends the signature and then this line.
has_marker() { tail -c $((${#marker} + 1)) "$1" | cmp -s - <(printf '%s\n' "$marker"); }
unsigned_is() { ! has_marker "$work/unsigned/arc4dev.ko"; }
tap_step "the module as built carries no signature" unsigned_is

# The signer's name as openssl reads it from the certificate, and as
# modinfo reads it from the signature sign-file appended.
cn() { openssl x509 -inform "$1" -in "$2" -noout -subject -nameopt multiline | sed -n 's/^ *commonName *= //p'; }
signer_is() {
	local ko=$1 want=$2 got
	has_marker "$ko" || { echo "no \"$marker\" trailer"; return 1; }
	got=$(modinfo -F signer "$ko")
	if [ -z "$want" ] || [ "$got" != "$want" ]; then
		echo "signer '$got', certificate '$want'"
		return 1
	fi
}

sign_kernel_key() {
	"$kdir/scripts/sign-file" sha256 "$kdir/certs/signing_key.pem" \
		"$kdir/certs/signing_key.x509" "$work/signed/arc4dev.ko" &&
		signer_is "$work/signed/arc4dev.ko" "$(cn DER "$kdir/certs/signing_key.x509")"
}
tap_step "sign-file signs a copy with the kernel's key; modinfo names its signer" sign_kernel_key

# DKMS, as Debian's dkms 3.0 signs what it builds, in trees of its own
# under $work: with the kernel's key and certificate as its machine owner
# key (mok_signing_key, mok_certificate: a key the kernel trusts, as an
# enrolled one is), and with none (dkms then makes its own, as on a fresh
# machine: a key the kernel does not trust until it is enrolled).  The
# settings come from the environment where /etc/dkms/framework.conf leaves
# them unset, so the host's DKMS is not touched.
dkms_builds() {
	local name=$1 d=$work/dkms-$1 log=$work/dkms-$1.log
	local dk=(dkms --dkmstree "$d/tree" --sourcetree "$d/src" --installtree "$d/installed")
	mkdir -p "$d/tree" "$d/installed"
	export mok_signing_key=$2 mok_certificate=$3
	if ! make -s install-dkms DKMSDIR="$d/src" >"$log" 2>&1 ||
		! "${dk[@]}" add "arc4/$version" >>"$log" 2>&1 ||
		! "${dk[@]}" build "arc4/$version" -k "$kver" --kernelsourcedir "$kdir" >>"$log" 2>&1; then
		tail -n 30 "$log"
		return 1
	fi
	if ! grep -qxF "Signing key: $2" "$log"; then
		echo "dkms did not take mok_signing_key=$2 from the environment:"
		grep -i sign "$log"
		return 1
	fi
	cp "$d/tree/arc4/$version/$kver/x86_64/module/arc4dev.ko" "$work/$name/" ||
		{ ls -R "$d/tree/arc4/$version/$kver"; return 1; }
}
kver=$(scripts/debug-kernel --flavour modsig --kver)
version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)
command -v dkms >/dev/null || scripts/deps-install dkms >"$work/deps.log" 2>&1

dkms_enrolled() {
	(dkms_builds enrolled "$kdir/certs/signing_key.pem" "$kdir/certs/signing_key.x509") &&
		signer_is "$work/enrolled/arc4dev.ko" "$(cn DER "$kdir/certs/signing_key.x509")"
}
tap_step "dkms build signs with the kernel's key as its MOK; modinfo names its signer" dkms_enrolled

dkms_own_key() {
	(dkms_builds other "$work/dkms-mok.key" "$work/dkms-mok.pub") &&
		[ -s "$work/dkms-mok.key" ] && signer_is "$work/other/arc4dev.ko" "$(cn DER "$work/dkms-mok.pub")"
}
tap_step "dkms build makes a key of its own and signs with it; modinfo names its signer" dkms_own_key

boot none ""
boot enforce module.sig_enforce=1
boot lockdown lockdown=integrity
t2=$(date +%s)

tap_diag "kernel ready in $((t1 - t0)) s (first build: $(cat "$(dirname "$kdir")/build-seconds") s); module, signing and VMs $((t2 - t1)) s"
tap_plan "$tap_n"
tap_done
