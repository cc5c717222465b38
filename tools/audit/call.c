// SPDX-License-Identifier: GPL-2.0
/*
 * Calls on the way back from a seed: the library calls that fill a buffer
 * (time(), gettimeofday(), read() of /dev/urandom, ...), those whose result
 * is entropy or a per-user constant, and local functions followed to their
 * returns.
 */
#include <string.h>

#include "trace.h"

/* Calls that fill memory: which argument points at it, how much. */
static const struct writer {
	const char *name;
	int arg, size, size_arg;
	unsigned source;	/* 0: entropy only if the function opens /dev/urandom */
} writers[] = {
	{ "time", 0, 8, -1, SRC_TIME },
	{ "__time64", 0, 8, -1, SRC_TIME },
	{ "ftime", 0, 16, -1, SRC_TIME },
	{ "gettimeofday", 0, 16, -1, SRC_GETTIMEOFDAY },
	{ "__gettimeofday64", 0, 16, -1, SRC_GETTIMEOFDAY },
	{ "clock_gettime", 1, 16, -1, SRC_CLOCK_GETTIME },
	{ "__clock_gettime64", 1, 16, -1, SRC_CLOCK_GETTIME },
	{ "getrandom", 0, 0, 1, SRC_GETRANDOM },
	{ "getentropy", 0, 0, 1, SRC_GETRANDOM },
	{ "arc4random_buf", 0, 0, 1, SRC_ARC4RANDOM },
	{ "read", 1, 0, 2, 0 },
	{ "__read_chk", 1, 0, 2, 0 },
	{ "fread", 0, 64, -1, 0 },
	{ "fread_unlocked", 0, 64, -1, 0 },
	{ "__fread_chk", 0, 64, -1, 0 },
};

/* Functions whose result is entropy. */
static const struct {
	const char *name;
	unsigned source;
} entropy_results[] = {
	{ "time", SRC_TIME }, { "__time64", SRC_TIME },
	{ "getpid", SRC_PID }, { "getppid", SRC_PPID }, { "gettid", SRC_TID },
	{ "arc4random", SRC_ARC4RANDOM }, { "arc4random_uniform", SRC_ARC4RANDOM },
};

/* Functions whose result is the same on every run of one user: a seed
 * made of these alone replays; mixed with entropy it is entropy. */
static const char *const per_user[] = {
	"getuid", "geteuid", "getgid", "getegid",
};

/*
 * Does the call at instruction p write stack slot l?  1 with *v when it
 * does (or may), 0 when it does not.
 */
int call_writes(struct fn *f, int p, struct loc l,
		struct val *v)
{
	int64_t local;
	const char *name = callee(f, &f->insn[p], &local);
	size_t k;
	int a;

	for (k = 0; name && k < sizeof(writers) / sizeof(writers[0]); k++) {
		const struct writer *w = &writers[k];
		struct loc al, slot;
		uint64_t addr;
		int64_t size = w->size ? w->size : 64;

		if (strcmp(name, w->name) != 0)
			continue;
		if (!arg_loc(f, p, w->arg, &al) ||
		    addr_of(f, p, al, &slot, &addr) != 1)
			return 0;
		slot.size = size;
		if (strcmp(name, "time") == 0 && f->im->bits == 32)
			slot.size = 4;
		if (!overlaps(slot, l))
			return 0;
		if (w->source)
			*v = v_ent(w->source);
		else if (fn_urandom(f))
			*v = v_ent(SRC_URANDOM);
		else
			*v = v_unk("read() of a file not seen to be /dev/urandom");
		return 1;
	}
	/* Any other call handed the slot's address (or its buffer's) */
	for (a = 0; a < 4; a++) {
		struct loc al, slot;
		uint64_t addr;

		if (!arg_loc(f, p, a, &al) || addr_of(f, p, al, &slot, &addr) != 1)
			continue;
		if (slot.base == l.base && slot.off <= l.off && l.off < slot.off + 256) {
			*v = v_unk("written through a pointer by a call");
			return 1;
		}
	}
	return 0;
}

/* The value a call returns in rax: an entropy source, or a local
 * function followed to its returns, or unknown. */
struct val call_result(struct ctx *c, const char *name, int64_t local,
		       int depth)
{
	static __thread int call_depth;
	struct val acc = V_EMPTY;
	struct fn *g;
	size_t k;
	int i, start;

	if (name) {
		for (k = 0; k < sizeof(entropy_results) / sizeof(entropy_results[0]); k++)
			if (strcmp(name, entropy_results[k].name) == 0)
				return v_ent(entropy_results[k].source);
		for (k = 0; k < sizeof(per_user) / sizeof(per_user[0]); k++)
			if (strcmp(name, per_user[k]) == 0)
				return v_const_of("a user or group ID");
		if (family_index(name) >= 0)
			return v_unk("result of another rand family call");
		return v_unk("result of a library call");
	}
	if (local < 0)
		return v_unk("result of an indirect call");
	if (call_depth >= MAX_CALL_DEPTH || !(g = fn_get(c, local)) ||
	    (start = insn_index(g, local)) < 0)
		return v_unk("result of a local function");
	call_depth++;
	for (i = start; i < (int)g->n; i++) {
		const cs_insn *in = &g->insn[i];
		struct val v;
		int64_t l2;
		const char *n2;

		if (i > start && (size_t)i < g->n && g->insn[i].address >= g->end)
			break;
		if (is_ret(in)) {
			v = at(c, g, i, l_reg(R_AX), depth + 1);
		} else if (in->id == X86_INS_JMP &&
			   ((n2 = callee(g, in, &l2)) != NULL ||
			    (l2 >= 0 && insn_index(g, l2) < 0))) {
			v = call_result(c, n2, l2, depth + 1);	/* a tail call */
		} else {
			continue;
		}
		acc = v_merge(acc, v);
	}
	call_depth--;
	return acc.flags ? acc : v_unk("result of a local function");
}
