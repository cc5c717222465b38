/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The seed tracer's own types, shared by its files and no one else:
 *
 *   insn.c   x86 instructions, register families, operands, locations
 *   fn.c     a function: disassembly, jump predecessors, and the stack and
 *            frame pointer before every instruction
 *   addr.c   the stack or static address a register or slot holds
 *   value.c  what a location holds before an instruction (the def-use walk)
 *   call.c   what a library or local call writes and returns
 *   seed.c   the seeding calls of a file and the class of their seeds
 */
#ifndef ARC4_AUDIT_TRACE_H
#define ARC4_AUDIT_TRACE_H

#include <stdint.h>
#include <capstone/capstone.h>

#include "image.h"

enum {
	MAX_FN_BYTES = 256 * 1024,	/* decode at most this much around a site */
	MAX_DEPTH = 400,		/* nested look-ups per seed */
	MAX_STEPS = 100000,		/* instructions visited per seed */
	VISIT_SLOTS = 1 << 18,		/* > 2 * MAX_STEPS: the table never fills */
	MAX_CALL_DEPTH = 2,		/* local functions followed for a return value */
};

/* Register families: 0-15 general purpose (x86-64 numbering), 16-31 xmm. */
enum { R_AX, R_CX, R_DX, R_BX, R_SP, R_BP, R_SI, R_DI, R_8, R_9, R_NONE = -1 };

/* A stack address: base 0 unknown, 1 the entry stack pointer, k > 1 the
 * stack pointer after `and rsp, -align` at instruction k - 2. */
struct frame {
	int sp_base, bp_base;
	int64_t sp_off, bp_off;
};

struct fn {
	const struct image *im;
	csh cs;
	uint64_t start, end;
	cs_insn *insn;
	size_t n;
	struct frame *fr;	/* before each instruction */
	int *pred_first, *preds;	/* jump predecessors, CSR */
	int urandom;		/* -1 not yet looked, else 0/1 */
};

struct ctx {
	const struct image *im;
	csh cs;
	struct fn **fns;
	size_t nfns, capfns;
	long steps;
	int qid;
	/* visited (insn, location, query) triples of the current seed */
	struct vkey {
		const struct fn *f;
		int i, qid, reg, base, size;
		int64_t off;
		unsigned gen;
	} *vis;
	unsigned gen;		/* entries of other generations are free */
};

enum { V_CONST = 1, V_ENT = 2, V_UNK = 4, V_HASVAL = 8 };

struct val {
	unsigned flags, sources;
	uint64_t value;
	const char *why;	/* what an unknown stopped at */
	const char *cwhy;	/* what a constant without a value is */
};

static const struct val V_EMPTY = { 0, 0, 0, NULL, NULL };

/* A location: a register family, or a stack slot. */
struct loc {
	int reg;		/* R_NONE for a slot */
	int base, size;
	int64_t off;
};

static inline int is_ret(const cs_insn *in)
{
	return in->id == X86_INS_RET || in->id == X86_INS_RETF ||
	       in->id == X86_INS_RETFQ;
}

static inline int ends_flow(const cs_insn *in)
{
	return in->id == X86_INS_JMP || in->id == X86_INS_LJMP || is_ret(in) ||
	       in->id == X86_INS_HLT || in->id == X86_INS_UD2;
}

static inline struct loc l_reg(int r)
{
	return (struct loc){ r, 0, 0, 0 };
}

static inline struct loc l_slot(int base, int64_t off, int size)
{
	return (struct loc){ R_NONE, base, size ? size : 4, off };
}

static inline int overlaps(struct loc a, struct loc b)
{
	return a.reg == R_NONE && b.reg == R_NONE && a.base == b.base &&
	       a.off < b.off + b.size && b.off < a.off + a.size;
}

static inline uint64_t le_bytes(const uint8_t *p, int n)
{
	uint64_t v = 0;

	while (n-- > 0)
		v = v << 8 | p[n];
	return v;
}

static inline uint64_t mask(uint64_t v, int size)
{
	return size >= 8 || size <= 0 ? v : v & ((1ull << (8 * size)) - 1);
}

static inline struct val v_const(uint64_t v)
{
	return (struct val){ V_CONST | V_HASVAL, 0, v, NULL, NULL };
}

/* A constant whose value we do not know, such as getuid(). */
static inline struct val v_const_of(const char *what)
{
	return (struct val){ V_CONST, 0, 0, NULL, what };
}

static inline struct val v_unk(const char *why)
{
	return (struct val){ V_UNK, 0, 0, why, NULL };
}

static inline struct val v_ent(unsigned src)
{
	return (struct val){ V_ENT, src, 0, NULL, NULL };
}

/* insn.c: instructions, registers and operands */
int reg_family(unsigned r);
int op_reg(const cs_x86_op *op);
int is_jump(csh cs, const cs_insn *in);
int insn_index(const struct fn *f, uint64_t addr);
int64_t jump_target(const cs_insn *in);
int writes_reg(const struct fn *f, const cs_insn *in, int r);
int is_arg_reg(const struct fn *f, int r);
int caller_saved(const struct fn *f, int r);
int arg_loc(const struct fn *f, int i, int k, struct loc *l);
int mem_slot(const struct fn *f, int i, const x86_op_mem *m, int size,
	     struct loc *out);
int mem_static(const struct fn *f, const cs_insn *in,
	       const x86_op_mem *m, uint64_t *addr);
const uint8_t *ro_bytes(const struct image *im, uint64_t addr, size_t len);
const char *callee(const struct fn *f, const cs_insn *in, int64_t *local);
int pc_thunk(const struct fn *f, const cs_insn *in);

/* fn.c: functions, disassembled and analysed once per file */
struct fn *fn_get(struct ctx *c, uint64_t addr);
void fn_free(struct fn *f);
int fn_urandom(struct fn *f);

/* addr.c: the stack or static address a location holds */
int addr_of(struct fn *f, int i, struct loc l,
	    struct loc *slot, uint64_t *addr);
int mem_slot_deep(struct fn *f, int p,
		  const x86_op_mem *m, int size, struct loc *out);

/* value.c: what a location holds before an instruction */
struct val v_merge(struct val a, struct val b);
struct val v_arith(struct val a, struct val b, unsigned id);
struct val at(struct ctx *c, struct fn *f, int i, struct loc l, int depth);

/* call.c: what a call writes and returns */
int call_writes(struct fn *f, int p, struct loc l, struct val *v);
struct val call_result(struct ctx *c, const char *name, int64_t local,
		       int depth);

#endif /* ARC4_AUDIT_TRACE_H */
