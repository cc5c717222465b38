# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# tap.sh: TAP output for the install tests' shell scripts.  Sourced.
#
#   tap_plan N         "1..N"
#   tap_root_or_skip N  not root: N skips, the script ends (tests that
#                      need scripts/tests-run's VM lists, root only)
#   tap_ok DESC        "ok N DESC"
#   tap_fail DESC      "not ok N DESC", and the test script will exit 1
#   tap_check DESC CMD...   ok or not ok by CMD's status; its output as
#                      "# " comments when it fails
#   tap_skip DESC WHY  "ok N DESC # SKIP WHY"
#   tap_diag TEXT...   "# TEXT"
#   tap_step DESC CMD...  tap_check for a step later ones need: once
#                      anything has failed, it and the rest SKIP
#                      (tap_broken is then 1)
#   tap_done           exit status: 1 if anything failed

tap_n=0
tap_failed=0
tap_broken=0

tap_plan() { echo "1..$1"; }
tap_root_or_skip() {
	local i
	[ "$(id -u)" -ne 0 ] || return 0
	for ((i = 1; i <= $1; i++)); do
		echo "ok $i # SKIP not root: scripts/tests-run runs VM lists as root only"
	done
	exit 0
}
tap_diag() { printf '%s\n' "$@" | sed 's/^/# /'; }
tap_ok() { tap_n=$((tap_n + 1)); echo "ok $tap_n $1"; }
tap_fail() {
	tap_n=$((tap_n + 1))
	tap_failed=1
	echo "not ok $tap_n $1"
}
tap_skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n $1 # SKIP $2"; }
tap_check() {
	local desc=$1 out
	shift
	if out=$("$@" 2>&1); then
		tap_ok "$desc"
	else
		tap_fail "$desc"
		[ -n "$out" ] && tap_diag "$out"
	fi
	return 0
}
tap_step() {
	local desc=$1
	shift
	if [ "$tap_broken" = 1 ]; then
		tap_skip "$desc" "an earlier step failed"
		return
	fi
	tap_check "$desc" "$@"
	[ "$tap_failed" = 0 ] || tap_broken=1
}
tap_done() { return "$tap_failed"; }

# tap_relay FILE: the results of another TAP stream (the test VM's) as
# ours, each named "VM: ...", its comments passed on; tap_relayed is set
# to how many results it held.
tap_relay() {
	local line d
	tap_relayed=0
	while read -r line; do
		case $line in
		"ok "*" # SKIP "*)
			tap_relayed=$((tap_relayed + 1))
			d=${line#ok }; d=${d#* }
			tap_skip "VM: ${d% \# SKIP *}" "${d#* \# SKIP }"
			;;
		"ok "*) tap_relayed=$((tap_relayed + 1)); d=${line#ok }; tap_ok "VM: ${d#* }" ;;
		"not ok "*) tap_relayed=$((tap_relayed + 1)); d=${line#not ok }; tap_fail "VM: ${d#* }" ;;
		"#"*) echo "$line" ;;
		esac
	done <"$1"
}
