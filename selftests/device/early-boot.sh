#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# early-boot.sh: boot a test VM of its own whose kernel RNG is still
# uninitialised when userspace starts (QEMU's qemu64 CPU has no RDRAND, and
# random.trust_cpu=off random.trust_bootloader=off credit nothing else), and
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
VM_CPU=qemu64 VM_SMP=1 \
	VM_APPEND="${VM_APPEND:-} random.trust_cpu=off random.trust_bootloader=off" \
	exec scripts/vm-run build/selftests/device/early
