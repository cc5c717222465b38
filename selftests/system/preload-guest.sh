#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# preload-guest.sh on|off: the guest side of preload.sh, run by
# scripts/vm-run in a VM booted on a release tree where `arc4ctl preload
# on` (or then `off`) ran.  Starts a service as an init script does
# (start-stop-daemon, systemd-udevd detached) and a login shell (su -l)
# that runs a seeded C program, then looks at every process.
#   on:  /etc/ld.so.preload names the shim; PID 1, the service, the login
#        shell, what it runs, every process with a user space has it
#        mapped; srand(1), rand() draws anew each run, never glibc's
#        sequence; arc4ctl preload status says on, arc4dev, the count.
#   off: no /etc/ld.so.preload; no process maps the shim; srand(1), rand()
#        is glibc's sequence again, in the login shell too; status says off.
# Prints TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. selftests/install/tap.sh
unset ARC4_LEGACY LD_PRELOAD

shim=/usr/local/lib/libarc4.so.1
mapped() { grep -qF "$shim" "/proc/$1/maps"; }
# Every process with a user space (kernel threads have empty maps) maps
# the shim (on) or none does (off); the last line lists them, "PID comm".
census() {
	local want=$1 d m bad=() all=() n=0
	for d in /proc/[0-9]*; do
		m=$(cat "$d/maps" 2>/dev/null) && [ -n "$m" ] || continue
		n=$((n + 1))
		all+=("${d#/proc/} $(cat "$d/comm" 2>/dev/null)")
		if grep -qF "$shim" <<<"$m"; then
			[ "$want" = on ] || bad+=("${d#/proc/} $(cat "$d/comm" 2>/dev/null)")
		else
			[ "$want" = off ] || bad+=("${d#/proc/} $(cat "$d/comm" 2>/dev/null)")
		fi
	done
	[ ${#bad[@]} -eq 0 ] || { echo "of $n processes, not $want: ${bad[*]}"; return 1; }
	echo "all $want: $(IFS=,; echo "${all[*]}")"
}

# --census on|off: the census alone (the login shell runs it).
if [ "${1:-}" = --census ]; then
	census "$2"
	exit
fi
mode=${1:?usage: preload-guest.sh on|off}
udevd=/usr/lib/systemd/systemd-udevd
work=$(mktemp -d /tmp/preload.XXXXXX)
chmod 755 "$work"
# glibc's random_r.c TYPE_3 generator after srand(1): the first four
# values every glibc has given since 1997 (and the C standard's example
# does not: a different generator).
glibc="1804289383 846930886 1681692777 1714636915"

tap_plan 7

cat >"$work/seeded.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	int i;

	srand(1);
	for (i = 0; i < 4; i++)
		printf(i < 3 ? "%d " : "%d\n", rand());
	return 0;
}
EOF
built() { gcc -O2 -Wall -Werror -o "$work/seeded" "$work/seeded.c"; }
tap_step "gcc builds the seeded program in the booted tree" built

if [ "$mode" = on ]; then
	file_names() { [ "$(cat /etc/ld.so.preload)" = "$shim" ]; }
	tap_check "/etc/ld.so.preload is exactly the shim's line, $shim" file_names
else
	tap_check "/etc/ld.so.preload is gone, as before on" test ! -e /etc/ld.so.preload
fi

# The service: an init script's start, detached, parented by PID 1.
service() {
	start-stop-daemon --start --quiet --pidfile /run/udev.pid --exec "$udevd" -- --daemon ||
		return 1
	local pid
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		pid=$(pgrep -x systemd-udevd) && break
		sleep 1
	done
	[ -n "$pid" ] || { echo "systemd-udevd did not start"; return 1; }
	echo "systemd-udevd is PID $pid, parent $(ps -o ppid= "$pid")"
	if [ "$mode" = on ]; then
		mapped 1 || { echo "PID 1 does not map $shim"; return 1; }
		mapped "$pid" || { echo "systemd-udevd does not map $shim"; return 1; }
	else
		! mapped 1 && ! mapped "$pid" || { echo "the shim is mapped"; return 1; }
	fi
}
tap_check "PID 1 and a service started by start-stop-daemon (systemd-udevd --daemon): the shim $([ "$mode" = on ] && echo mapped || echo not mapped)" service

# A login shell, and what it runs: its own maps, the census of every
# process meanwhile, the seeded program twice.
su -l root -c "shopt -q login_shell && echo login-shell
	grep -cF '$shim' /proc/\$\$/maps
	$work/seeded; $work/seeded
	bash $top/selftests/system/preload-guest.sh --census $mode" >"$work/login" 2>&1
tap_diag "su -l root ran: $(tr '\n' '|' <"$work/login")"
login_shell() {
	[ "$(sed -n 1p "$work/login")" = login-shell ] || return 1
	if [ "$mode" = on ]; then
		[ "$(sed -n 2p "$work/login")" -gt 0 ]
	else
		[ "$(sed -n 2p "$work/login")" = 0 ]
	fi
}
tap_check "a login shell (su -l root): the shim $([ "$mode" = on ] && echo mapped || echo not mapped)" login_shell
draws() {
	local a b
	a=$(sed -n 3p "$work/login") b=$(sed -n 4p "$work/login")
	[ -n "$a" ] && [ -n "$b" ] || return 1
	if [ "$mode" = on ]; then
		[ "$a" != "$glibc" ] && [ "$b" != "$glibc" ] && [ "$a" != "$b" ]
	else
		[ "$a" = "$glibc" ] && [ "$b" = "$glibc" ]
	fi
}
if [ "$mode" = on ]; then
	tap_check "what the login shell runs draws strong values: srand(1), rand() differs per run, not glibc's $glibc" draws
else
	tap_check "what the login shell runs draws glibc's sequence again: srand(1), rand() gives $glibc" draws
fi
# PID 1, the service, su, the login shell and the census's shell at least.
every() {
	local line
	line=$(grep "^all $mode: " "$work/login") || return 1
	grep -q ': 1 [^,]*,' <<<"$line" && grep -q ',[0-9]* systemd-udevd' <<<"$line" &&
		grep -q ',[0-9]* su,' <<<"$line" || { echo "missing from: $line"; return 1; }
}
tap_check "every process with a user space (census run from the login shell, the service running): $mode" every

status() {
	local out rc
	out=$(arc4ctl preload status) rc=$?
	echo "$out"
	if [ "$mode" = on ]; then
		[ "$rc" = 0 ] && grep -q '^preload: *on:' <<<"$out" &&
			grep -q '^device: .*served by arc4dev' <<<"$out" &&
			grep -qE "^processes: ([1-9][0-9]*) of \\1 running" <<<"$out"
	else
		[ "$rc" = 3 ] && grep -q '^preload: *off:' <<<"$out" &&
			grep -q '^processes: 0 of ' <<<"$out"
	fi
}
tap_check "arc4ctl preload status: $mode, /dev/arc4 served by arc4dev, the process count" status
udevadm control --exit 2>/dev/null
rm -rf "$work"
tap_done
