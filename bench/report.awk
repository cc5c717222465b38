# bench/report.awk: the table and the target ratios from results.tsv.
#
#   awk -F'\t' -f bench/report.awk build/bench/results.tsv
#
# Each figure is the median of the repeats; "spread" is min..max over them,
# and for a ratio a/b it is min(a)/max(b) .. max(a)/min(b).

/^# host load/ { load = $0; sub(/^# /, "", load) }
/^# [a-z]+: not measured/ { notes = notes "  " substr($0, 3) "\n" }
/^#/ || $1 == "where" { next }
# what system each VM was: uname -r and glibc's version (bench/anchor)
$2 == "info" && $3 == "system" { kern[$1] = $4; libc[$1] = $5; next }
{
	k = $1 SUBSEP $2 SUBSEP $3 SUBSEP $4 SUBSEP $5 SUBSEP $6
	med[k] = $7; lo[k] = $8; hi[k] = $9; have[k] = 1
	# system calls seen per (where, impl, func), in the order given
	if ($2 == "syscalls" && $5 != "all") {
		sep = (($1, $3, $4) in sysnames) ? ", " : ""
		sysnames[$1, $3, $4] = sysnames[$1, $3, $4] sep sprintf("%s %.0f", $5, $7)
	}
}

function key(w, g, i, f, m, p) { return w SUBSEP g SUBSEP i SUBSEP f SUBSEP m SUBSEP p }

function val(k) { return (k in have) ? med[k] : "" }

# spread of one figure, in % of its median
function pct(k) {
	if (!(k in have) || med[k] == 0)
		return "    -"
	return sprintf("%4.1f%%", 100 * (hi[k] - lo[k]) / med[k])
}

function cell(k, fmt) {
	return (k in have) ? sprintf(fmt, med[k]) : sprintf("%" length(sprintf(fmt, 0)) "s", "-")
}

# ratio a/b, as "x.xxx (lo..hi)"; sets R_ok (1 met, 0 missed, -1 no data)
function ratio(a, b, target, le,    r, rl, rh) {
	if (!(a in have) || !(b in have) || med[b] == 0 || lo[b] == 0) {
		R_ok = -1
		return "no data"
	}
	r = med[a] / med[b]; rl = lo[a] / hi[b]; rh = hi[a] / lo[b]
	R_ok = le ? (r <= target) : (r >= target)
	R_val = r
	return sprintf("%.3f (%.3f..%.3f)", r, rl, rh)
}

function target(name, where, a, b, t, le,    s) {
	s = ratio(a, b, t, le)
	printf "  %-52s %-16s %-26s %s %-5s %s\n", name, where, s, le ? "<=" : ">=", t,
		R_ok < 0 ? "n/a" : R_ok ? "met" : "NOT MET"
}

# a ratio measured directly (median of the per-pair ratios), target >= t
function scaled(name, where, k, t) {
	printf "  %-52s %-16s %-26s >= %-5s %s\n", name, where,
		(k in have) ? sprintf("%.3f (%.3f..%.3f)", med[k], lo[k], hi[k]) : "no data", t,
		(!(k in have) ? "n/a" : (med[k] >= t) ? "met" : "NOT MET")
}

# ---- the releases: the anchor peer, system calls, the refill's parts ----

# the icount VMs, one per release, and their names
function releases() {
	NREL = split("vm-icount vm-icount-trixie vm-icount-sid " \
		"vm-icount-bookworm-arm64 vm-icount-trixie-arm64", RW, " ")
	split("bookworm trixie sid bookworm-arm64 trixie-arm64", RN, " ")
}

function shim_key(w, g, f, p) { return key(w, g, "shim", f, "strong", p) }

# Least squares over the refill sizes of pread(n) from impl in w: sets
# FIT_a (instructions per call), FIT_b (per byte), FIT_r (largest
# residual); returns 0 without data.
function fit(w, impl,    n, i, k, x, y, sx, sy, sxx, sxy, d, r) {
	n = split("1024 2048 4096 8192 16376", x, " ")
	for (i = 1; i <= n; i++) {
		k = key(w, "refill", impl, "pread", "strong", x[i])
		if (!(k in have))
			return 0
		y[i] = med[k]
		sx += x[i]; sy += y[i]; sxx += x[i] * x[i]; sxy += x[i] * y[i]
	}
	d = n * sxx - sx * sx
	FIT_b = (n * sxy - sx * sy) / d
	FIT_a = (sy - FIT_b * sx) / n
	FIT_r = 0
	for (i = 1; i <= n; i++) {
		r = y[i] - FIT_a - FIT_b * x[i]
		if (r < 0)
			r = -r
		if (r > FIT_r)
			FIT_r = r
	}
	return 1
}

# One row of the release table: a label and a value per release.
function relrow(label, v, fmt,    i) {
	printf "  %-52s", label
	for (i = 1; i <= NREL; i++)
		printf " %22s", (i in v) && v[i] != "" ? sprintf(fmt, v[i]) : "-"
	printf "\n"
}

# A release row of instructions per call of impl's func in mode.
function relcall(label, impl, func, mode,    i, v) {
	for (i = 1; i <= NREL; i++)
		v[i] = val(key(RW[i], "call", impl, func, mode, 1))
	relrow(label, v, "%.1f")
}

# A release row of the ratio of two calls, each "impl:func:mode".
function relratio(label, a, b,    i, v, x, y, ka, kb) {
	split(a, x, ":")
	split(b, y, ":")
	for (i = 1; i <= NREL; i++) {
		ka = key(RW[i], "call", x[1], x[2], x[3], 1)
		kb = key(RW[i], "call", y[1], y[2], y[3], 1)
		v[i] = (ka in have) && (kb in have) ? med[ka] / med[kb] : ""
	}
	relrow(label, v, "%.3f")
}

# ---- starting to draw: bench/startup (icount VMs) and start threads (host) ----

# A release row of bench/startup's figure impl/func/mode.
function relstart(label, impl, func, mode,    i, v) {
	for (i = 1; i <= NREL; i++)
		v[i] = val(key(RW[i], "start", impl, func, mode, 1))
	relrow(label, v, "%.0f")
}

# A release row of the difference of two bench/startup figures, each
# "impl:func:mode", each its record's median: a first call's repeats agree
# to a few instructions; a spawn's "-fast" record is of its faster half of
# 200 (bench/start.c), so its median is the lower quartile, which agreed
# within about 5,000 from run to run where the least of 40 moved by
# 10,000.
function reldiff(label, a, b,    i, v, x, y, ka, kb) {
	split(a, x, ":")
	split(b, y, ":")
	for (i = 1; i <= NREL; i++) {
		ka = key(RW[i], "start", x[1], x[2], x[3], 1)
		kb = key(RW[i], "start", y[1], y[2], y[3], 1)
		v[i] = (ka in have) && (kb in have) ? med[ka] - med[kb] : ""
	}
	relrow(label, v, "%.0f")
}

# A difference of two figures in w (as in reldiff()), target <= t.
function difftarget(name, w, a, b, t,    d) {
	d = (a in have) && (b in have) ? med[a] - med[b] : ""
	printf "  %-52s %-16s %-26s <= %-5s %s\n", name, w,
		d == "" ? "no data" : sprintf("%.0f insns", d), t,
		d == "" ? "n/a" : d <= t ? "met" : "NOT MET"
}

function startup_table(    i, f, m, h) {
	releases()
	print ""
	print "== Starting to draw (icount VMs, in a tmpfs chroot: instructions; bench/startup) =="
	printf "  %-52s", ""
	for (i = 1; i <= NREL; i++)
		printf " %22s", RN[i]
	printf "\n"
	split("arc4random rand", f, " ")
	for (i = 1; i <= 2; i++) {
		relstart(sprintf("first %s(), glibc, static", f[i]), "glibc-static", f[i], "first")
		relstart(sprintf("first %s(), shim (libarc4.a)", f[i]), "shim-static", f[i], "first")
		relstart(sprintf("first %s(), glibc, dynamic", f[i]), "glibc", f[i], "first")
		relstart(sprintf("first %s(), shim (-larc4)", f[i]), "shim", f[i], "first")
	}
	split("plain preload-empty preload-shim", m, " ")
	for (i = 1; i <= 3; i++) {
		relstart("spawn+exec+exit, draws nothing, " m[i], "process", "none", "spawn-" m[i])
		relstart("spawn+exec+exit, one arc4random(), " m[i], "process", "arc4random", "spawn-" m[i])
	}
	print "  subtracted (first calls: medians; spawns: lower quartiles, but where said):"
	reldiff("exec, the loader's share (preload-empty - plain)",
		"process:none:spawn-preload-empty-fast", "process:none:spawn-plain-fast")
	reldiff("exec, arc4's share (preload-shim - preload-empty)",
		"process:none:spawn-preload-shim-fast", "process:none:spawn-preload-empty-fast")
	reldiff("  the same, medians of all spawns",
		"process:none:spawn-preload-shim", "process:none:spawn-preload-empty")
	reldiff("first rand() beyond first arc4random(), -larc4",
		"shim:rand:first", "shim:arc4random:first")
	print ""
	print "== Resident memory per thread, stacks included (host: KiB; start threads N DRAWS) =="
	for (i = 1; i <= 2; i++) {
		h = i == 1 ? 1 : 1000000
		printf "  %-52s %10s %10s\n", sprintf("a thread that drew %d arc4random()", h),
			cell(key("host", "start", "glibc", "arc4random", "rss-per-thread", h), "%10.2f") " glibc",
			cell(key("host", "start", "shim", "arc4random", "rss-per-thread", h), "%10.2f") " shim"
	}
}

function startup_targets(    k, a, b, i, w) {
	target("shim first arc4random() / glibc 2.41's first", "vm-icount-trixie",
		key("vm-icount-trixie", "start", "shim", "arc4random", "first", 1),
		key("vm-icount-trixie", "start", "glibc", "arc4random", "first", 1), 1.0, 1)
	target("  aiming at a quarter of it", "vm-icount-trixie",
		key("vm-icount-trixie", "start", "shim", "arc4random", "first", 1),
		key("vm-icount-trixie", "start", "glibc", "arc4random", "first", 1), 0.25, 1)
	target("shim first rand() / glibc 2.41's first arc4random()", "vm-icount-trixie",
		key("vm-icount-trixie", "start", "shim", "rand", "first", 1),
		key("vm-icount-trixie", "start", "glibc", "arc4random", "first", 1), 1.0, 1)
	for (i = 1; i <= 2; i++) {
		w = i == 1 ? "vm-icount" : "vm-icount-trixie"
		difftarget("exec: arc4's share (shim - empty library preloaded)", w,
			key(w, "start", "process", "none", "spawn-preload-shim-fast", 1),
			key(w, "start", "process", "none", "spawn-preload-empty-fast", 1), 30000)
		difftarget("  aiming at", w,
			key(w, "start", "process", "none", "spawn-preload-shim-fast", 1),
			key(w, "start", "process", "none", "spawn-preload-empty-fast", 1), 20000)
		difftarget("first rand() - first arc4random(), -larc4", w,
			key(w, "start", "shim", "rand", "first", 1),
			key(w, "start", "shim", "arc4random", "first", 1), 5000)
	}
	a = key("host", "start", "shim", "arc4random", "rss-per-thread", 1)
	b = key("host", "start", "glibc", "arc4random", "rss-per-thread", 1)
	if ((a in have) && (b in have))
		printf "  %-52s %-16s %-26s <= %-5s %s\n", "memory per thread that drew one value, shim - glibc", "host",
			sprintf("%.2f KiB", med[a] - med[b]), "2", med[a] - med[b] <= 2 ? "met" : "NOT MET"
}

function anchor_table(    i, v, c, d, f, a, u) {
	releases()
	print "== The anchor peer: glibc's own arc4random() on each release (vm-icount: instructions per call) =="
	printf "  %-52s", ""
	for (i = 1; i <= NREL; i++)
		printf " %22s", RN[i]
	printf "\n"
	for (i = 1; i <= NREL; i++) v[i] = kern[RW[i]]
	relrow("kernel", v, "%s")
	for (i = 1; i <= NREL; i++) v[i] = libc[RW[i]]
	relrow("glibc", v, "%s")
	relcall("glibc arc4random()", "glibc", "arc4random", "strong")
	relcall("glibc rand()", "glibc", "rand", "det")
	relcall("shim arc4random() (/dev/arc4)", "shim", "arc4random", "strong")
	relcall("shim strong rand() (/dev/arc4)", "shim", "rand", "strong")
	relratio("shim arc4random() / glibc arc4random()", "shim:arc4random:strong", "glibc:arc4random:strong")
	relratio("shim strong rand() / glibc arc4random()", "shim:rand:strong", "glibc:arc4random:strong")
	relratio("shim strong rand() / glibc rand()", "shim:rand:strong", "glibc:rand:det")
	for (d = 4096; d <= 65536; d *= 16) {
		for (i = 1; i <= NREL; i++) {
			a = key(RW[i], "read", "arc4", "read", "strong", d)
			u = key(RW[i], "read", "urandom", "read", "strong", d)
			v[i] = (a in have) && (u in have) ? med[a] / med[u] : ""
		}
		relrow(sprintf("/dev/arc4 / /dev/urandom throughput, read(%d)", d), v, "%.2f")
	}
	printf "%s", notes

	print ""
	print "== System calls per 10^6 values (strace -f between two markers, after a first call; bench/syscalls) =="
	split("glibc:arc4random glibc:rand shim:arc4random shim:rand", c, " ")
	for (d = 1; d <= 4; d++) {
		split(c[d], f, ":")
		for (i = 1; i <= NREL; i++)
			v[i] = val(key(RW[i], "syscalls", f[1], f[2], "all", 1000000))
		relrow(f[1] " " f[2] "()", v, "%.1f")
	}
	for (i = 1; i <= NREL; i++)
		for (d = 1; d <= 4; d++) {
			split(c[d], f, ":")
			if ((RW[i], f[1], f[2]) in sysnames)
				printf "  %s, %s %s(): %s\n", RN[i], f[1], f[2], sysnames[RW[i], f[1], f[2]]
		}
}

# The shim's arc4random() per value, in parts (doc/performance.md has the
# method).  Per value: 4 bytes of the refill.
function breakdown(    i, w, v, t, u, n, at, bt, rt, aa, ba, ra, p0, fs, gi, sum, ok, T, U) {
	releases()
	n = (16384 - 8) / 4
	print ""
	print "== The shim's arc4random(), instructions per value, by part (vm-icount; a refill is one pread() of 16376 B = 4094 values) =="
	printf "  %-52s", ""
	for (i = 1; i <= NREL; i++)
		printf " %22s", RN[i] (match(kern[RW[i]], /^[0-9]+\.[0-9]+/) ? " " substr(kern[RW[i]], 1, RLENGTH) : "")
	printf "\n"
	for (i = 1; i <= NREL; i++) {
		w = RW[i]
		t = shim_key(w, "call", "arc4random", 1)
		u = shim_key(w, "fastpath", "arc4random", 256)
		ok[i] = (t in have) && (u in have) && fit(w, "tmpfs")
		if (ok[i]) {
			at[i] = FIT_a; bt[i] = FIT_b; rt[i] = FIT_r
			ok[i] = fit(w, "arc4")
			aa[i] = FIT_a; ba[i] = FIT_b; ra[i] = FIT_r
		}
		p0[i] = val(key(w, "refill", "arc4", "pread", "strong", 0))
		fs[i] = val(key(w, "refill", "arc4", "fstat", "strong", 0))
		gi[i] = val(key(w, "refill", "arc4", "get_info", "strong", 0))
		ok[i] = ok[i] && p0[i] != "" && fs[i] != "" && gi[i] != ""
		T[i] = med[t]; U[i] = med[u]
	}
	for (i = 1; i <= NREL; i++) v[i] = ok[i] ? T[i] : ""
	relrow("total per value (callbench single)", v, "%.2f")
	for (i = 1; i <= NREL; i++) v[i] = ok[i] ? U[i] : ""
	relrow("  user path (fastpath: blocks with no refill)", v, "%.2f")
	for (i = 1; i <= NREL; i++) v[i] = ok[i] ? T[i] - U[i] : ""
	relrow("  refill, per value (total - user path)", v, "%.2f")
	for (i = 1; i <= NREL; i++) v[i] = ok[i] ? 4 * (ba[i] - bt[i]) : ""
	relrow("    kernel ChaCha20 (4 x (arc4 - tmpfs slope))", v, "%.2f")
	for (i = 1; i <= NREL; i++) v[i] = ok[i] ? 4 * bt[i] : ""
	relrow("    copy to userspace (4 x tmpfs slope)", v, "%.2f")
	for (i = 1; i <= NREL; i++) v[i] = ok[i] ? p0[i] / n : ""
	relrow("    system call, pread() of 0 B / 4094", v, "%.2f")
	for (i = 1; i <= NREL; i++) v[i] = ok[i] ? (aa[i] - p0[i]) / n : ""
	relrow("    module per read (arc4 intercept - that)", v, "%.2f")
	for (i = 1; i <= NREL; i++) v[i] = ok[i] ? (fs[i] + gi[i]) / n : ""
	relrow("    fstat() + GET_INFO per refill / 4094", v, "%.2f")
	for (i = 1; i <= NREL; i++) {
		sum = 4 * ba[i] + (aa[i] + fs[i] + gi[i]) / n
		v[i] = ok[i] ? T[i] - U[i] - sum : ""
	}
	relrow("    rest (shim slow path, interrupts)", v, "%.2f")
	for (i = 1; i <= NREL; i++) {
		t = shim_key(RW[i], "call", "rand", 1)
		u = shim_key(RW[i], "fastpath", "rand", 256)
		v[i] = (t in have) && (u in have) ? med[t] - med[u] : ""
	}
	relrow("  check: strong rand() refill per value", v, "%.2f")
	print "  per read, instructions: pread(n) = a + b n, least squares over n = 1, 2, 4, 8 KiB, 16376 B"
	for (i = 1; i <= NREL; i++) v[i] = ok[i] ? sprintf("%.0f + %.3f n", aa[i], ba[i]) : ""
	relrow("  /dev/arc4 (strong)", v, "%s")
	for (i = 1; i <= NREL; i++) v[i] = ok[i] ? sprintf("%.0f", ra[i]) : ""
	relrow("    largest residual", v, "%s")
	for (i = 1; i <= NREL; i++) v[i] = ok[i] ? sprintf("%.0f + %.3f n", at[i], bt[i]) : ""
	relrow("  tmpfs file (page cache copy)", v, "%s")
	for (i = 1; i <= NREL; i++) v[i] = ok[i] ? sprintf("%.0f", rt[i]) : ""
	relrow("    largest residual", v, "%s")
	for (i = 1; i <= NREL; i++) v[i] = val(key(RW[i], "refill", "arc4", "pread", "strong", 16376))
	relrow("  /dev/arc4 pread(16376), measured", v, "%.0f")
	for (i = 1; i <= NREL; i++) v[i] = p0[i]
	relrow("  /dev/arc4 pread(0)", v, "%.0f")
	for (i = 1; i <= NREL; i++) v[i] = fs[i]
	relrow("  fstat()", v, "%.0f")
	for (i = 1; i <= NREL; i++) v[i] = gi[i]
	relrow("  ioctl(ARC4_IOC_GET_INFO)", v, "%.0f")
}

# Issue 10's floors against glibc's own arc4random() in w; and the check
# that glibc's arc4random() makes no system call per value.
function anchor_targets(w,    g, b, k, v) {
	g = "glibc " (libc[w] != "" ? libc[w] : "?")
	b = key(w, "call", "glibc", "arc4random", "strong", 1)
	target("shim arc4random() / " g " arc4random()", w, shim_key(w, "call", "arc4random", 1), b, 0.2, 1)
	target("shim strong rand() / " g " arc4random()", w, shim_key(w, "call", "rand", 1), b, 0.25, 1)
	k = key(w, "syscalls", "glibc", "arc4random", "all", 1000000)
	v = (k in have) ? med[k] / 1e6 : ""
	printf "  %-52s %-16s %-26s <= %-5s %s\n", g " arc4random() system calls per value", w,
		v == "" ? "no data" : sprintf("%.6f", v), "0.001", v == "" ? "n/a" : v <= 0.001 ? "met" : "NOT MET"
}

END {
	nsz = split("16 256 4096 65536 1048576", sz, " ")
	nsrc = split("arc4:strong arc4:det urandom:strong getrandom:strong", src, " ")

	print "== Device read throughput (vm-icount: MB per 10^9 guest instructions; spread = max-min) =="
	printf "  %8s", "size"
	for (j = 1; j <= nsrc; j++)
		printf "  %18s", src[j]
	printf "  %10s\n", "arc4/urnd"
	for (i = 1; i <= nsz; i++) {
		printf "  %8d", sz[i]
		for (j = 1; j <= nsrc; j++) {
			split(src[j], s, ":")
			k = key("vm-icount", "read", s[1], "read", s[2], sz[i])
			printf "  %11s %6s", cell(k, "%11.2f"), pct(k)
		}
		a = key("vm-icount", "read", "arc4", "read", "strong", sz[i])
		b = key("vm-icount", "read", "urandom", "read", "strong", sz[i])
		printf "  %10s\n", (a in have && b in have) ? sprintf("%.2f", med[a] / med[b]) : "-"
	}

	print ""
	print "== open + read(32) + close, kernel memory per open (vm-icount) =="
	k = key("vm-icount", "openclose", "arc4", "open+read32+close", "strong", 32)
	printf "  %-40s %10s insns  %s\n", "/dev/arc4 open+read(32)+close", cell(k, "%10.0f"), pct(k)
	k = key("vm-icount", "openclose", "urandom", "open+read32+close", "strong", 32)
	printf "  %-40s %10s insns  %s\n", "/dev/urandom open+read(32)+close", cell(k, "%10.0f"), pct(k)
	k = key("vm-icount", "memory", "arc4", "slab-per-open", "strong", 10000)
	printf "  %-40s %10s bytes  %s\n", "slab per open /dev/arc4 (10000 opens)", cell(k, "%10.1f"), pct(k)
	k = key("vm-icount", "memory", "urandom", "slab-per-open", "strong", 10000)
	printf "  %-40s %10s bytes  %s\n", "slab per open /dev/urandom (10000 opens)", cell(k, "%10.1f"), pct(k)
	k = key("vm-icount", "memory", "arc4", "slab-beyond-file", "strong", 10000)
	printf "  %-40s %10s bytes  %s\n", "  difference: beyond the struct file", cell(k, "%10.1f"), pct(k)
	k = key("vm-icount", "memory", "kernel", "struct-file", "-", 1)
	printf "  %-40s %10s bytes\n", "struct file (filp slab object)", cell(k, "%10.0f")

	print ""
	print "== Per call, one thread (vm-icount: instructions; host: ns, shim via getrandom) =="
	printf "  %-30s %-6s  %-17s %-17s %-17s | %-12s %-12s %-12s\n", "function", "mode",
		"shim insns", "glibc insns", "libbsd insns", "shim ns", "glibc ns", "libbsd ns"
	nf = split("rand random drand48 arc4random arc4random_uniform arc4random_buf", fn, " ")
	for (m = 1; m <= 2; m++) {
		mode = m == 1 ? "strong" : "det"
		for (i = 1; i <= nf; i++) {
			f = fn[i]
			if (mode == "det" && f ~ /^arc4/)
				continue
			label = f == "arc4random_uniform" ? f "(1000)" : f == "arc4random_buf" ? f "(16)" : f "()"
			printf "  %-30s %-6s ", label, mode
			# glibc's rand families only have the deterministic mode
			gm = f ~ /^arc4/ ? "strong" : "det"
			split("vm-icount host", ws, " ")
			for (w = 1; w <= 2; w++) {
				fmt = w == 1 ? "%9.1f" : "%6.2f"
				k = key(ws[w], "call", "shim", f, mode, 1)
				printf " %s %s", cell(k, fmt), pct(k)
				k = key(ws[w], "call", "glibc", f, gm, 1)
				printf " %s %s", cell(k, fmt), pct(k)
				k = key(ws[w], "call", "libbsd", f, "strong", 1)
				printf " %s %s", cell(k, fmt), pct(k)
				if (w == 1)
					printf " |"
			}
			printf "\n"
		}
	}

	print ""
	anchor_table()
	breakdown()

	print ""
	print "== Threads: aggregate calls/s, thread i pinned to CPU i (2 CPUs; 1- and 2-thread runs alternate, ratio per pair) =="
	if (load != "")
		print "  " load
	printf "  %-10s %-22s %-6s %17s %17s  %-20s %-20s\n", "where", "implementation", "mode", "1 thread", "2 threads", "2/1 pairs", "2/1 per CPU-second"
	split("vm-smp host", ws, " ")
	nt = split("shim:rand:strong shim:rand:det shim:random:strong shim:drand48:strong shim:arc4random:strong glibc:rand:det glibc:arc4random:strong libbsd:arc4random:strong", tl, " ")
	for (w = 1; w <= 2; w++)
		for (i = 1; i <= nt; i++) {
			split(tl[i], t, ":")
			a = key(ws[w], "threads", t[1], t[2], t[3], 2)
			b = key(ws[w], "threads", t[1], t[2], t[3], 1)
			if (!(a in have) && !(b in have))
				continue
			c = key(ws[w], "scaling", t[1], t[2], t[3], 2)
			d = key(ws[w], "scaling-cpu", t[1], t[2], t[3], 2)
			printf "  %-10s %-22s %-6s %10s %s %10s %s  %-20s %-20s\n", ws[w], t[1] " " t[2] "()", t[3],
				cell(b, "%10.3g"), pct(b), cell(a, "%10.3g"), pct(a),
				(c in have) ? sprintf("%.2f (%.2f..%.2f)", med[c], lo[c], hi[c]) : "-",
				(d in have) ? sprintf("%.2f (%.2f..%.2f)", med[d], lo[d], hi[d]) : "-"
		}

	startup_table()

	print ""
	print "== Targets: ratio of medians (spread from min/max of the repeats) =="
	I = "vm-icount"
	target("shim strong rand() / glibc rand()", I,
		key(I, "call", "shim", "rand", "strong", 1), key(I, "call", "glibc", "rand", "det", 1), 1.0, 1)
	target("shim arc4random() / glibc 2.36 arc4random()", I,
		key(I, "call", "shim", "arc4random", "strong", 1), key(I, "call", "glibc", "arc4random", "strong", 1), 0.05, 1)
	target("shim arc4random() / libbsd arc4random()", I,
		key(I, "call", "shim", "arc4random", "strong", 1), key(I, "call", "libbsd", "arc4random", "strong", 1), 0.05, 1)
	scaled("shim rand() 2 threads / 1 thread", "vm-smp", key("vm-smp", "scaling", "shim", "rand", "strong", 2), 1.8)
	scaled("shim rand() 2 threads / 1 thread", "host", key("host", "scaling", "shim", "rand", "strong", 2), 1.8)
	scaled("  the same per CPU-second of each thread", "host", key("host", "scaling-cpu", "shim", "rand", "strong", 2), 1.8)
	for (i = 3; i <= nsz; i++)
		target(sprintf("/dev/arc4 / /dev/urandom read(%d)", sz[i]), I,
			key(I, "read", "arc4", "read", "strong", sz[i]), key(I, "read", "urandom", "read", "strong", sz[i]), 3.0, 0)
	target("/dev/arc4 / /dev/urandom open+read(32)+close", I,
		key(I, "openclose", "arc4", "open+read32+close", "strong", 32),
		key(I, "openclose", "urandom", "open+read32+close", "strong", 32), 1.5, 1)
	anchor_targets("vm-icount-trixie")
	k = key(I, "memory", "arc4", "slab-beyond-file", "strong", 10000)
	if (k in have)
		printf "  %-52s %-16s %-26s <= %-5s %s\n", "kernel memory per open /dev/arc4 beyond struct file", I,
			sprintf("%.0f B (%.0f..%.0f)", med[k], lo[k], hi[k]), "512", med[k] <= 512 ? "met" : "NOT MET"
	startup_targets()
	print ""
	print "  For information (host, real ns, shim through its getrandom() fallback):"
	target("shim strong rand() / glibc rand()", "host",
		key("host", "call", "shim", "rand", "strong", 1), key("host", "call", "glibc", "rand", "det", 1), 1.0, 1)
	target("shim arc4random() / glibc 2.36 arc4random()", "host",
		key("host", "call", "shim", "arc4random", "strong", 1), key("host", "call", "glibc", "arc4random", "strong", 1), 0.05, 1)
	target("shim arc4random() / libbsd arc4random()", "host",
		key("host", "call", "shim", "arc4random", "strong", 1), key("host", "call", "libbsd", "arc4random", "strong", 1), 0.05, 1)
	scaled("glibc rand() 2 threads / 1 thread", "vm-smp", key("vm-smp", "scaling", "glibc", "rand", "det", 2), 1.8)
	scaled("glibc rand() 2 threads / 1 thread", "host", key("host", "scaling", "glibc", "rand", "det", 2), 1.8)
	scaled("  the same per CPU-second of each thread", "host", key("host", "scaling-cpu", "glibc", "rand", "det", 2), 1.8)
	print ""
	print "  For information, the same floors on unstable's newest kernel and glibc:"
	anchor_targets("vm-icount-sid")
}
