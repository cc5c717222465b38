#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# docs.sh: the README stays a front door (at most 250 lines, the rest in
# doc/), and every relative link in README.md and doc/*.md leads somewhere:
# its file exists in the tree and, for a link with a #fragment into a
# Markdown file, that file has a heading GitHub would give that anchor.
# Prints TAP.
#
#   selftests/install/docs.sh [TOP]    (TOP: the tree to check, default
#                                       this one)
set -uo pipefail
top=$(cd "${1:-$(dirname "$0")/../..}" && pwd)
# shellcheck source=selftests/install/tap.sh
. "$(dirname "$0")/tap.sh"
cd "$top" || exit 1

max_lines=250

# anchors FILE: the anchor of each heading of a Markdown file, one a line,
# as GitHub makes them: lower case, punctuation dropped but for - and _,
# each space a hyphen; a repeated heading gets -1, -2, ...
anchors() {
	awk '
	/^```/ { code = !code; next }
	code || !/^#+ / { next }
	{
		h = $0
		sub(/^#+ +/, "", h)
		h = tolower(h)
		gsub(/[^a-z0-9 _-]/, "", h)
		gsub(/ /, "-", h)
		if (h in seen)
			print h "-" seen[h]++
		else {
			seen[h] = 1
			print h
		}
	}' "$1"
}

# links FILE: the target of each inline link or image, one a line, outside
# code blocks and code spans.
links() {
	awk '
	/^```/ { code = !code; next }
	code || /^    / { next }
	{
		s = $0
		gsub(/`[^`]*`/, "", s)
		while (match(s, /\]\([^) ]+\)/)) {
			print substr(s, RSTART + 2, RLENGTH - 3)
			s = substr(s, RSTART + RLENGTH)
		}
	}' "$1"
}

# bad_links FILE: each relative link of FILE that leads nowhere, and why.
bad_links() {
	local file=$1 dir target path frag bad=0
	dir=$(dirname "$file")
	while read -r target; do
		case $target in
		http://* | https://* | mailto:*) continue ;;
		esac
		path=${target%%#*}
		frag=
		[ "$path" = "$target" ] || frag=${target#*#}
		if [ -z "$path" ]; then
			path=$file
		else
			path=$dir/$path
		fi
		if [ ! -e "$path" ]; then
			echo "$target: no file $path"
			bad=1
		elif [ -n "$frag" ] && [ "${path%.md}" != "$path" ] &&
			! anchors "$path" | grep -qxF -- "$frag"; then
			echo "$target: no heading in $path has the anchor #$frag"
			bad=1
		fi
	done < <(links "$file")
	return "$bad"
}

readme_is_short() {
	local n
	n=$(wc -l <README.md)
	[ "$n" -le "$max_lines" ] || { echo "README.md has $n lines"; return 1; }
}

files=(README.md doc/*.md)
tap_plan $((1 + ${#files[@]}))
tap_check "README.md is at most $max_lines lines" readme_is_short
for f in "${files[@]}"; do
	tap_check "$f: every relative link leads to a file and heading of the tree" bad_links "$f"
done
tap_done
