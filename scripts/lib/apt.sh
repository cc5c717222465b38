# shellcheck shell=bash
# apt.sh: reaching Debian's archive on its bad days.  Sourced.
#
#   apt_retry LABEL CMD...  run CMD; while it fails, pause and try again,
#                           up to ARC4_APT_TRIES times in all (default 3),
#                           ARC4_APT_PAUSE seconds apart (default 30).
#                           Returns CMD's last status.
#   apt_update              apt-get update through apt_retry.  Its output
#                           goes to stderr; the archive's complaints of the
#                           last try (apt's "E:" lines) stay in
#                           $apt_update_errors for a message of the caller's.
#
# A mirror in the middle of a sync serves an index whose size does not
# match its Release file ("Mirror sync in progress?"); a pause is often
# all it takes.  When every try fails, apt keeps the lists it had, and the
# caller goes on with them: what they can install, it installs.

apt_update_errors=

apt_retry() {
	local label=$1 tries=${ARC4_APT_TRIES:-3} pause=${ARC4_APT_PAUSE:-30}
	local i=1 rc
	shift
	while :; do
		"$@" && return 0
		rc=$?
		[ "$i" -lt "$tries" ] || break
		echo "arc4: $label failed (status $rc, try $i of $tries); again in $pause s" >&2
		sleep "$pause"
		i=$((i + 1))
	done
	echo "arc4: $label failed $tries times (status $rc)" >&2
	return "$rc"
}

# _apt_update_once: one apt-get update, its output on stderr, its "E:"
# lines kept.
_apt_update_once() {
	local log rc
	log=$(mktemp) || return 1
	apt-get -o DPkg::Lock::Timeout=900 update -q >"$log" 2>&1
	rc=$?
	cat "$log" >&2
	apt_update_errors=$(grep '^E: ' "$log" | head -n 3)
	rm -f "$log"
	# apt-get update can report failed indexes on an exit status of 0.
	[ "$rc" -eq 0 ] && [ -z "$apt_update_errors" ]
}

apt_update() {
	apt_retry "apt-get update" _apt_update_once
}
