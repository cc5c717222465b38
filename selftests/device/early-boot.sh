#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# early-boot.sh: boot a test VM of its own whose kernel RNG is still
# uninitialised when userspace starts (QEMU's qemu64 CPU has no RDRAND, its
# cortex-a57 no RNDR, and random.trust_cpu=off random.trust_bootloader=off
# credit nothing else), and
# run build/selftests/device/early there: O_NONBLOCK opens fail with EAGAIN,
# a blocking open waits interruptibly and returns once the RNG is ready.
# Prints that program's TAP; the VM's exit status covers the kernel log.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1

if [ "$(id -u)" -ne 0 ]; then
	echo "TAP version 13"
	echo "1..1"
	echo "ok 1 early boot # SKIP scripts/vm-run needs root"
	exit 0
fi
# arm64's counterpart of qemu64 is a CPU without FEAT_RNG (RNDR); and the
# virt board's device tree carries a random seed that the kernel credits
# before it parses random.trust_bootloader=off, so it goes.
arch=${VM_ARCH:-$(sed -n 's/^arch=//p' .arc4-dist 2>/dev/null)}
cpu=qemu64 qemu=
if [ "$arch" = arm64 ]; then
	cpu=cortex-a57 qemu="-machine dtb-randomness=off"
fi
VM_CPU=$cpu VM_SMP=1 VM_QEMU_ARGS="${VM_QEMU_ARGS:-} $qemu" \
	VM_APPEND="${VM_APPEND:-} random.trust_cpu=off random.trust_bootloader=off" \
	exec scripts/vm-run build/selftests/device/early
