#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# docs.sh: the README stays a front door (at most 250 lines, the rest in
# doc/), and what README.md and doc/*.md cite exists in the tree:
#
#  - links: every relative link leads to a file and, for a #fragment into a
#    Markdown file, to a heading GitHub would give that anchor;
#  - paths: the first word of every code span (`...`) that starts with one
#    of the tree's top-level directories and a slash (`lib/source.c`,
#    `scripts/vm-run CMD`, `selftests/*/host-tests`), or is a top-level
#    file (`Makefile`), names a file or directory of the tree (a glob: at
#    least one); build products (.ko .so .so.1 .a .o .pc) and build/ are
#    not checked;
#  - functions: in `PATH:NAME` (a repository path, a colon, an
#    identifier), `FILE`'s `NAME()`, and a table row `| `FILE` |
#    `NAME()` |`, NAME occurs in that file (FILE a path, or a bare file
#    name that one or more files of the tree have: any of them);
#    `PATH:NUMBER` is refused, since line numbers move;
#  - names: every code span that is a call, `name()`, or an identifier
#    starting with arc4_ or ARC4_, names something the sources define or
#    use (a kernel or libc function the docs discuss is one the code
#    calls).
#
# Code blocks are not checked (commands with placeholders).  Prints TAP.
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

# prose FILE: FILE's lines outside fenced and indented code blocks.
prose() {
	awk '
	/^```/ { code = !code; next }
	code || /^    / { next }
	{ print }' "$1"
}

# links FILE: the target of each inline link or image, one a line, outside
# code blocks and code spans.
links() {
	prose "$1" | awk '
	{
		s = $0
		gsub(/`[^`]*`/, "", s)
		while (match(s, /\]\([^) ]+\)/)) {
			print substr(s, RSTART + 2, RLENGTH - 3)
			s = substr(s, RSTART + RLENGTH)
		}
	}'
}

# spans FILE: the text of each code span, one a line (a span that wraps
# to the next line is joined with a space).
spans() {
	prose "$1" | awk '
	{ buf = buf (buf == "" ? "" : " ") $0 }
	/^$/ { buf = "" }
	{
		s = buf
		while (match(s, /`[^`]+`/)) {
			print substr(s, RSTART + 1, RLENGTH - 2)
			s = substr(s, RSTART + RLENGTH)
		}
		# An odd number of backticks: a span goes on on the next line.
		n = gsub(/`/, "`", s)
		buf = n % 2 ? substr(s, index(s, "`")) : ""
	}'
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

# The tree's top-level directories and files, build/ and dot-files aside.
top_dirs=() top_files=()
for e in *; do
	[ "$e" = build ] && continue
	if [ -d "$e" ]; then top_dirs+=("$e"); else top_files+=("$e"); fi
done

# is_repo_path WORD: WORD starts with a top-level directory and a slash,
# or is a top-level file.
is_repo_path() {
	local d
	for d in "${top_dirs[@]}"; do
		case $1 in "$d"/*) return 0 ;; esac
	done
	for d in "${top_files[@]}"; do
		[ "$1" = "$d" ] && return 0
	done
	return 1
}

# exists PATH: PATH, or what it matches as a glob, is in the tree.
exists() {
	local m
	case $1 in
	*'*'* | *'?'* | *'['*)
		for m in $1; do
			[ -e "$m" ] && return 0
		done
		return 1 ;;
	esac
	[ -e "$1" ]
}

# bad_paths FILE: each code span of FILE naming a repository path that
# does not exist.
bad_paths() {
	local span word bad=0
	while IFS= read -r span; do
		word=${span%% *}
		word=${word%[,.;:]}
		case $word in
		*.ko | *.so | *.so.* | *.a | *.o | *.pc | *:*) continue ;;
		esac
		is_repo_path "$word" || continue
		# A placeholder (RELEASE, CMD) makes it a pattern, not a path.
		[[ /$word/ =~ /[A-Z]+/ ]] && continue
		# A program is there as its source: selftests/stress/fuzz.c.
		exists "$word" || exists "$word.c" && continue
		echo "\`$span\`: no $word in the tree"
		bad=1
	done < <(spans "$1")
	return "$bad"
}

# files_named NAME: the files NAME means: the path itself, or every file
# of the tree (build/ aside) with that file name.
files_named() {
	if [ -f "$1" ]; then
		echo "$1"
	elif [ "${1#*/}" = "$1" ]; then
		find . -path ./build -prune -o -path ./.git -prune -o \
			-type f -name "$1" -print | sed 's|^\./||'
	fi
}

# has_name FILE NAME: NAME occurs as a word in a file FILE names.
has_name() {
	local f found=
	while IFS= read -r f; do
		found=1
		grep -qw -- "$2" "$f" && return 0
	done < <(files_named "$1")
	[ -n "$found" ] || echo "no file $1"
	return 1
}

# refs FILE: "FILE NAME" for each reference to a file's function or line:
# `PATH:NAME`, `PATH:LINE`, `FILE`'s `NAME()`, | `FILE` | `NAME()` |.
refs() {
	prose "$1" | awk -v q="'" '
	BEGIN { fn = "`[A-Za-z0-9_.\\/-]+\\.(c|h|sh)`(" q "s| *\\|) *`[A-Za-z_][A-Za-z0-9_]*\\(\\)`" }
	{
		s = $0
		while (match(s, /[A-Za-z0-9_.\/-]+\.(c|h|sh|py|awk|mk):[A-Za-z0-9_]+/)) {
			r = substr(s, RSTART, RLENGTH)
			s = substr(s, RSTART + RLENGTH)
			sub(/:/, " ", r)
			print r
		}
		s = $0
		while (match(s, fn)) {
			r = substr(s, RSTART + 1, RLENGTH - 1)
			s = substr(s, RSTART + RLENGTH)
			f = r; sub(/`.*/, "", f)
			n = r; sub(/`$/, "", n); sub(/.*`/, "", n)
			sub(/\(\)$/, "", n)
			print f " " n
		}
	}'
}

# bad_refs FILE: each function or line reference of FILE that the tree
# does not have.
bad_refs() {
	local f name why bad=0
	while read -r f name; do
		is_repo_path "$f" || [ "${f#*/}" = "$f" ] || continue
		case $name in
		[0-9]*)
			echo "$f:$name: a line number (they move; name the function)"
			bad=1
			continue ;;
		esac
		why=$(has_name "$f" "$name") && continue
		echo "$f: no $name${why:+ ($why)}"
		bad=1
	done < <(refs "$1")
	return "$bad"
}

# Where the project's own names are defined or used.
sources=(kmod lib include tools scripts selftests bench stats demo mk python prove
	Makefile man debian)

# bad_names FILE: each `name()` or arc4_/ARC4_ identifier in a code span
# of FILE that no source file has.
bad_names() {
	local span name bad=0
	while IFS= read -r span; do
		name=${span%()}
		[[ $span =~ ^[A-Za-z][A-Za-z0-9_]*\(\)$ ]] ||
			[[ $name =~ ^(arc4|ARC4)_[A-Za-z0-9_]+$ ]] || continue
		grep -rqw --exclude-dir=build -- "$name" "${sources[@]}" 2>/dev/null &&
			continue
		echo "\`$span\`: no source file has $name"
		bad=1
	done < <(spans "$1" | sort -u)
	return "$bad"
}

readme_is_short() {
	local n
	n=$(wc -l <README.md)
	[ "$n" -le "$max_lines" ] || { echo "README.md has $n lines"; return 1; }
}

files=(README.md doc/*.md)
tap_plan $((1 + 4 * ${#files[@]}))
tap_check "README.md is at most $max_lines lines" readme_is_short
for f in "${files[@]}"; do
	tap_check "$f: every relative link leads to a file and heading of the tree" bad_links "$f"
	tap_check "$f: every repository path in a code span exists" bad_paths "$f"
	tap_check "$f: every file:function it cites is in that file, and no line numbers" bad_refs "$f"
	tap_check "$f: every name() and arc4_/ARC4_ name in a code span is in the sources" bad_names "$f"
done
tap_done
