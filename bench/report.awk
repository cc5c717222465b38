# bench/report.awk: the table and the target ratios from results.tsv.
#
#   awk -F'\t' -f bench/report.awk build/bench/results.tsv
#
# Each figure is the median of the repeats; "spread" is min..max over them,
# and for a ratio a/b it is min(a)/max(b) .. max(a)/min(b).

/^# host load/ { load = $0; sub(/^# /, "", load) }
/^#/ || $1 == "where" { next }
{
	k = $1 SUBSEP $2 SUBSEP $3 SUBSEP $4 SUBSEP $5 SUBSEP $6
	med[k] = $7; lo[k] = $8; hi[k] = $9; have[k] = 1
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
	printf "  %-52s %-10s %-26s %s %-5s %s\n", name, where, s, le ? "<=" : ">=", t,
		R_ok < 0 ? "n/a" : R_ok ? "met" : "NOT MET"
}

# a ratio measured directly (median of the per-pair ratios), target >= t
function scaled(name, where, k, t) {
	printf "  %-52s %-10s %-26s >= %-5s %s\n", name, where,
		(k in have) ? sprintf("%.3f (%.3f..%.3f)", med[k], lo[k], hi[k]) : "no data", t,
		(!(k in have) ? "n/a" : (med[k] >= t) ? "met" : "NOT MET")
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

	print ""
	print "== Targets (issue 4): ratio of medians (spread from min/max of the repeats) =="
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
	k = key(I, "memory", "arc4", "slab-beyond-file", "strong", 10000)
	if (k in have)
		printf "  %-52s %-10s %-26s <= %-5s %s\n", "kernel memory per open /dev/arc4 beyond struct file", I,
			sprintf("%.0f B (%.0f..%.0f)", med[k], lo[k], hi[k]), "512", med[k] <= 512 ? "met" : "NOT MET"
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
}
