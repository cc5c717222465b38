// SPDX-License-Identifier: GPL-2.0
/*
 * Where does a seed come from?
 *
 *   1. Functions:   disassembly (capstone), control-flow predecessors, and
 *                   the stack pointer and frame pointer at every
 *                   instruction, so that [rsp+8] and [rbp-24] name the
 *                   same stack slot wherever the function reads or writes it
 *   2. Values:      what a location (register or stack slot) holds before
 *                   an instruction, found by walking predecessors back to
 *                   the instructions that wrote it: a constant, entropy
 *                   (time(), getpid(), gettimeofday(), ...), or unknown
 *   3. Call sites:  every call of a seeder through the PLT or the GOT, and
 *                   the class of its seed argument: seed_scan()
 *
 * The analysis is deliberately small: no alias analysis beyond stack
 * slots, no path sensitivity.  When paths disagree, unknown wins over a
 * constant, and a constant over entropy: a seed that is constant on one
 * path makes the program need deterministic rand() on that path, and one
 * the trace cannot see needs a person to look.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <capstone/capstone.h>

#include "image.h"

/* ---- 1. Functions -------------------------------------------------------- */

enum {
	MAX_FN_BYTES = 256 * 1024,	/* decode at most this much around a site */
	MAX_DEPTH = 400,		/* nested look-ups per seed */
	MAX_STEPS = 100000,		/* instructions visited per seed */
	VISIT_SLOTS = 1 << 18,		/* > 2 * MAX_STEPS: the table never fills */
	MAX_CALL_DEPTH = 2,		/* local functions followed for a return value */
};

/* Register families: 0-15 general purpose (x86-64 numbering), 16-31 xmm. */
enum { R_AX, R_CX, R_DX, R_BX, R_SP, R_BP, R_SI, R_DI, R_8, R_9, R_NONE = -1 };

static int reg_family(unsigned r)
{
	switch (r) {
	case X86_REG_AL: case X86_REG_AH: case X86_REG_AX: case X86_REG_EAX: case X86_REG_RAX:
		return R_AX;
	case X86_REG_CL: case X86_REG_CH: case X86_REG_CX: case X86_REG_ECX: case X86_REG_RCX:
		return R_CX;
	case X86_REG_DL: case X86_REG_DH: case X86_REG_DX: case X86_REG_EDX: case X86_REG_RDX:
		return R_DX;
	case X86_REG_BL: case X86_REG_BH: case X86_REG_BX: case X86_REG_EBX: case X86_REG_RBX:
		return R_BX;
	case X86_REG_SPL: case X86_REG_SP: case X86_REG_ESP: case X86_REG_RSP:
		return R_SP;
	case X86_REG_BPL: case X86_REG_BP: case X86_REG_EBP: case X86_REG_RBP:
		return R_BP;
	case X86_REG_SIL: case X86_REG_SI: case X86_REG_ESI: case X86_REG_RSI:
		return R_SI;
	case X86_REG_DIL: case X86_REG_DI: case X86_REG_EDI: case X86_REG_RDI:
		return R_DI;
	}
	/* Runs of 8 or 16 consecutive capstone numbers. */
	static const struct { unsigned first, last; int family; } runs[] = {
		{ X86_REG_R8, X86_REG_R15, 8 }, { X86_REG_R8B, X86_REG_R15B, 8 },
		{ X86_REG_R8D, X86_REG_R15D, 8 }, { X86_REG_R8W, X86_REG_R15W, 8 },
		{ X86_REG_XMM0, X86_REG_XMM15, 16 }, { X86_REG_YMM0, X86_REG_YMM15, 16 },
	};
	size_t k;

	for (k = 0; k < sizeof(runs) / sizeof(runs[0]); k++)
		if (r >= runs[k].first && r <= runs[k].last)
			return runs[k].family + (r - runs[k].first);
	return R_NONE;
}

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

static int is_ret(const cs_insn *in)
{
	return in->id == X86_INS_RET || in->id == X86_INS_RETF ||
	       in->id == X86_INS_RETFQ;
}

static int ends_flow(const cs_insn *in)
{
	return in->id == X86_INS_JMP || in->id == X86_INS_LJMP || is_ret(in) ||
	       in->id == X86_INS_HLT || in->id == X86_INS_UD2;
}

static int is_jump(csh cs, const cs_insn *in)
{
	return cs_insn_group(cs, in, CS_GRP_JUMP);
}

static int insn_index(const struct fn *f, uint64_t addr)
{
	size_t lo = 0, hi = f->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->insn[mid].address == addr)
			return mid;
		if (f->insn[mid].address < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static int64_t jump_target(const cs_insn *in)
{
	const cs_x86 *x = &in->detail->x86;

	if (x->op_count == 1 && x->operands[0].type == X86_OP_IMM)
		return x->operands[0].imm;
	return -1;
}

static void fn_preds(struct ctx *c, struct fn *f)
{
	int *count = calloc(f->n + 1, sizeof(int)), *fill;
	size_t i;
	int t, total = 0;

	for (i = 0; i < f->n; i++)
		if (is_jump(c->cs, &f->insn[i]) &&
		    (t = insn_index(f, jump_target(&f->insn[i]))) >= 0)
			count[t]++;
	f->pred_first = malloc((f->n + 1) * sizeof(int));
	for (i = 0; i < f->n; i++) {
		f->pred_first[i] = total;
		total += count[i];
	}
	f->pred_first[f->n] = total;
	f->preds = malloc((total + 1) * sizeof(int));
	fill = count;
	memset(fill, 0, (f->n + 1) * sizeof(int));
	for (i = 0; i < f->n; i++)
		if (is_jump(c->cs, &f->insn[i]) &&
		    (t = insn_index(f, jump_target(&f->insn[i]))) >= 0)
			f->preds[f->pred_first[t] + fill[t]++] = i;
	free(count);
}

static int op_reg(const cs_x86_op *op)
{
	return op->type == X86_OP_REG ? reg_family(op->reg) : R_NONE;
}

/* The stack and frame pointers after instruction i, from those before. */
static struct frame frame_step(const struct fn *f, size_t i, struct frame s)
{
	const cs_insn *in = &f->insn[i];
	const cs_x86 *x = &in->detail->x86;
	const cs_x86_op *o0 = &x->operands[0], *o1 = &x->operands[1];
	int w = f->im->bits / 8, d0 = x->op_count > 0 ? op_reg(o0) : R_NONE;

	switch (in->id) {
	case X86_INS_PUSH:
		s.sp_off -= x->op_count ? o0->size : w;
		return s;
	case X86_INS_POP:
		s.sp_off += x->op_count ? o0->size : w;
		if (d0 == R_BP)
			s.bp_base = 0;
		return s;
	case X86_INS_CALL:
		/* `call next; pop reg`: the push stays */
		if (x->op_count == 1 && o0->type == X86_OP_IMM &&
		    (uint64_t)o0->imm == in->address + in->size)
			s.sp_off -= w;
		return s;
	case X86_INS_LEAVE:
		s.sp_base = s.bp_base;
		s.sp_off = s.bp_off + w;
		s.bp_base = 0;
		return s;
	case X86_INS_ADD:
	case X86_INS_SUB:
		if (d0 == R_SP && o1->type == X86_OP_IMM) {
			s.sp_off += in->id == X86_INS_ADD ? o1->imm : -o1->imm;
			return s;
		}
		break;
	case X86_INS_AND:
		if (d0 == R_SP) {
			s.sp_base = i + 2;
			s.sp_off = 0;
			return s;
		}
		break;
	case X86_INS_MOV:
		if (d0 == R_BP && op_reg(o1) == R_SP) {
			s.bp_base = s.sp_base;
			s.bp_off = s.sp_off;
			return s;
		}
		if (d0 == R_SP && op_reg(o1) == R_BP) {
			s.sp_base = s.bp_base;
			s.sp_off = s.bp_off;
			return s;
		}
		break;
	case X86_INS_LEA:
		if ((d0 == R_SP || d0 == R_BP) && o1->mem.index == X86_REG_INVALID) {
			int b = reg_family(o1->mem.base);
			int nb = b == R_SP ? s.sp_base : b == R_BP ? s.bp_base : 0;
			int64_t no = (b == R_SP ? s.sp_off : s.bp_off) + o1->mem.disp;

			if (d0 == R_SP)
				s.sp_base = nb, s.sp_off = no;
			else
				s.bp_base = nb, s.bp_off = no;
			return s;
		}
		break;
	}
	/* Anything else that writes rsp or rbp leaves them unknown. */
	{
		cs_regs rr, rw;
		uint8_t nr, nw, k;

		if (cs_regs_access(f->cs, in, rr, &nr, rw, &nw) == CS_ERR_OK)
			for (k = 0; k < nw; k++) {
				if (reg_family(rw[k]) == R_SP)
					s.sp_base = 0;
				if (reg_family(rw[k]) == R_BP)
					s.bp_base = 0;
			}
	}
	return s;
}

static void fn_frames(struct fn *f)
{
	int *work = malloc((f->n + 1) * sizeof(int)), nwork = 0;
	char *seen = calloc(f->n + 1, 1);
	size_t i;

	f->fr = calloc(f->n + 1, sizeof(*f->fr));
	if (f->n == 0)
		goto out;
	f->fr[0].sp_base = 1;
	seen[0] = 1;
	work[nwork++] = 0;
	while (nwork > 0) {
		int succ[2], ns = 0, k;
		struct frame out;

		i = work[--nwork];
		out = frame_step(f, i, f->fr[i]);
		if (!ends_flow(&f->insn[i]) && i + 1 < f->n)
			succ[ns++] = i + 1;
		if (is_jump(f->cs, &f->insn[i]))
			succ[ns++] = insn_index(f, jump_target(&f->insn[i]));
		for (k = 0; k < ns; k++)
			if (succ[k] >= 0 && !seen[succ[k]]) {
				seen[succ[k]] = 1;
				f->fr[succ[k]] = out;
				work[nwork++] = succ[k];
			}
	}
out:
	free(work);
	free(seen);
}

static void fn_free(struct fn *f)
{
	if (!f)
		return;
	cs_free(f->insn, f->n);
	free(f->fr);
	free(f->pred_first);
	free(f->preds);
	free(f);
}

/* The function holding addr, disassembled and analysed once per file. */
static struct fn *fn_get(struct ctx *c, uint64_t addr)
{
	const struct section *s = image_section(c->im, addr);
	uint64_t start, end;
	struct fn *f;
	size_t i;

	if (!s || !s->exec || !s->data)
		return NULL;
	for (i = 0; i < c->nfns; i++)
		if (addr >= c->fns[i]->start && addr < c->fns[i]->end)
			return c->fns[i];
	image_function(c->im, addr, &start, &end);
	/* No unwind table or symbols: decode a window; x86 resynchronises. */
	if (end - start > MAX_FN_BYTES) {
		if (addr - start > MAX_FN_BYTES * 3 / 4)
			start = addr - MAX_FN_BYTES * 3 / 4;
		if (end - start > MAX_FN_BYTES)
			end = start + MAX_FN_BYTES;
	}
	f = calloc(1, sizeof(*f));
	f->im = c->im;
	f->cs = c->cs;
	f->start = start;
	f->urandom = -1;
	f->n = cs_disasm(c->cs, s->data + (start - s->addr), end - start,
			 start, 0, &f->insn);
	f->end = f->n ? f->insn[f->n - 1].address + f->insn[f->n - 1].size
		      : start + 1;
	if (f->end <= addr)
		f->end = addr + 1;
	fn_preds(c, f);
	fn_frames(f);
	if (c->nfns == c->capfns) {
		c->capfns = c->capfns ? 2 * c->capfns : 8;
		c->fns = realloc(c->fns, c->capfns * sizeof(*c->fns));
	}
	c->fns[c->nfns++] = f;
	return f;
}

/* ---- 2. Values ----------------------------------------------------------- */

enum { V_CONST = 1, V_ENT = 2, V_UNK = 4, V_HASVAL = 8 };

struct val {
	unsigned flags, sources;
	uint64_t value;
	const char *why;	/* what an unknown stopped at */
	const char *cwhy;	/* what a constant without a value is */
};

static const struct val V_EMPTY = { 0, 0, 0, NULL, NULL };

static struct val v_const(uint64_t v)
{
	return (struct val){ V_CONST | V_HASVAL, 0, v, NULL, NULL };
}

/* A constant whose value we do not know, such as getuid(). */
static struct val v_const_of(const char *what)
{
	return (struct val){ V_CONST, 0, 0, NULL, what };
}

static struct val v_unk(const char *why)
{
	return (struct val){ V_UNK, 0, 0, why, NULL };
}

static struct val v_ent(unsigned src)
{
	return (struct val){ V_ENT, src, 0, NULL, NULL };
}

/* Either of two paths. */
static struct val v_merge(struct val a, struct val b)
{
	struct val r = a;

	r.flags |= b.flags & (V_CONST | V_ENT | V_UNK);
	r.sources |= b.sources;
	if (!(a.flags & V_HASVAL) && (b.flags & V_HASVAL) && !(a.flags & V_CONST)) {
		r.flags |= V_HASVAL;
		r.value = b.value;
	}
	if (!r.why)
		r.why = b.why;
	if (!r.cwhy)
		r.cwhy = b.cwhy;
	return r;
}

/* Computed from both: constant only if both are, unknown if either is. */
static struct val v_arith(struct val a, struct val b, unsigned id)
{
	struct val r = { 0, a.sources | b.sources, 0, a.why ? a.why : b.why,
			 a.cwhy ? a.cwhy : b.cwhy };

	if (!a.flags)
		return b;
	if (!b.flags)
		return a;
	r.flags = (a.flags | b.flags) & (V_ENT | V_UNK);
	if ((a.flags & V_CONST) && (b.flags & V_CONST)) {
		r.flags |= V_CONST;
		if ((a.flags & V_HASVAL) && (b.flags & V_HASVAL)) {
			uint64_t x = a.value, y = b.value;

			r.flags |= V_HASVAL;
			switch (id) {
			case X86_INS_ADD: case X86_INS_LEA: r.value = x + y; break;
			case X86_INS_SUB: r.value = x - y; break;
			case X86_INS_XOR: r.value = x ^ y; break;
			case X86_INS_OR: r.value = x | y; break;
			case X86_INS_AND: r.value = x & y; break;
			case X86_INS_IMUL: r.value = x * y; break;
			case X86_INS_SHL: r.value = x << (y & 63); break;
			case X86_INS_SHR: r.value = x >> (y & 63); break;
			default: r.flags &= ~V_HASVAL;
			}
		}
	}
	return r;
}

/* A location: a register family, or a stack slot. */
struct loc {
	int reg;		/* R_NONE for a slot */
	int base, size;
	int64_t off;
};

static struct loc l_reg(int r)
{
	return (struct loc){ r, 0, 0, 0 };
}

static struct loc l_slot(int base, int64_t off, int size)
{
	return (struct loc){ R_NONE, base, size ? size : 4, off };
}

static int is_arg_reg(const struct fn *f, int r)
{
	return f->im->bits == 64 && (r == R_DI || r == R_SI || r == R_DX ||
				     r == R_CX || r == R_8 || r == R_9);
}

static int caller_saved(const struct fn *f, int r)
{
	if (r >= 16)
		return 1;
	if (f->im->bits == 32)
		return r == R_AX || r == R_CX || r == R_DX;
	return r == R_AX || r == R_CX || r == R_DX || r == R_SI ||
	       r == R_DI || (r >= 8 && r <= 11);
}

/* The stack slot a memory operand names at instruction i, if any. */
static int mem_slot(const struct fn *f, int i, const x86_op_mem *m, int size,
		    struct loc *out)
{
	const struct frame *s = &f->fr[i];
	int b = reg_family(m->base);

	if (m->index != X86_REG_INVALID || m->segment != X86_REG_INVALID)
		return 0;
	if (b == R_SP && s->sp_base) {
		*out = l_slot(s->sp_base, s->sp_off + m->disp, size);
		return 1;
	}
	if (b == R_BP && s->bp_base) {
		*out = l_slot(s->bp_base, s->bp_off + m->disp, size);
		return 1;
	}
	return 0;
}

/* A static address a memory operand or immediate names, if any. */
static int mem_static(const struct fn *f, const cs_insn *in,
		      const x86_op_mem *m, uint64_t *addr)
{
	if (m->index != X86_REG_INVALID)
		return 0;
	if (m->base == X86_REG_RIP)
		*addr = in->address + in->size + m->disp;
	else if (m->base == X86_REG_EBX && f->im->bits == 32 && f->im->got)
		*addr = (uint32_t)(f->im->got + m->disp);
	else if (m->base == X86_REG_INVALID)
		*addr = f->im->bits == 32 ? (uint32_t)m->disp : (uint64_t)m->disp;
	else
		return 0;
	return 1;
}

static int overlaps(struct loc a, struct loc b)
{
	return a.reg == R_NONE && b.reg == R_NONE && a.base == b.base &&
	       a.off < b.off + b.size && b.off < a.off + a.size;
}

/* Bytes of a read-only section at addr, or NULL. */
static const uint8_t *ro_bytes(const struct image *im, uint64_t addr, size_t len)
{
	const struct section *s = image_section(im, addr);

	if (!s || s->write || !s->data || addr + len > s->addr + s->size)
		return NULL;
	return s->data + (addr - s->addr);
}

static uint64_t le_bytes(const uint8_t *p, int n)
{
	uint64_t v = 0;

	while (n-- > 0)
		v = v << 8 | p[n];
	return v;
}

static uint64_t mask(uint64_t v, int size)
{
	return size >= 8 || size <= 0 ? v : v & ((1ull << (8 * size)) - 1);
}

/* The import a call or jump instruction reaches; *local its local target. */
static const char *callee(const struct fn *f, const cs_insn *in, int64_t *local)
{
	const cs_x86_op *op = &in->detail->x86.operands[0];
	const char *name;
	uint64_t a;

	*local = -1;
	if (in->detail->x86.op_count != 1)
		return NULL;
	if (op->type == X86_OP_IMM) {
		a = f->im->bits == 32 ? (uint32_t)op->imm : (uint64_t)op->imm;
		name = image_stub(f->im, a);
		if (!name)
			*local = a;
		return name;
	}
	if (op->type == X86_OP_MEM && mem_static(f, in, &op->mem, &a))
		return image_slot(f->im, a);
	return NULL;
}

/*
 * i386 PIC: `call __x86.get_pc_thunk.bx` (mov ebx, [esp]; ret) writes one
 * register and nothing else, and `call next; pop ebx` pushes.  The
 * register a call to such a thunk writes, or R_NONE.
 */
static int pc_thunk(const struct fn *f, const cs_insn *in)
{
	int64_t local;
	const struct section *s;
	const uint8_t *b;

	if (f->im->bits != 32 || in->id != X86_INS_CALL || callee(f, in, &local) ||
	    local < 0 || !(s = image_section(f->im, local)) || !s->data ||
	    local + 4 > (int64_t)(s->addr + s->size))
		return R_NONE;
	b = s->data + (local - s->addr);
	if (b[0] == 0x8b && (b[1] & 0xc7) == 0x04 && b[2] == 0x24 && b[3] == 0xc3)
		return (b[1] >> 3) & 7;	/* the x86 encoding's order is ours */
	return R_NONE;
}

static struct val at(struct ctx *c, struct fn *f, int i, struct loc l, int depth);

/* What a register holds at function entry, or an unreachable point. */
static struct val at_start(const struct fn *f, int i, struct loc l)
{
	if (i != 0)
		return v_unk("unreached code (a jump table?)");
	if (l.reg != R_NONE)
		return v_unk(is_arg_reg(f, l.reg) ? "parameter" : "register at entry");
	if (l.base == 1 && l.off >= 0)
		return v_unk("parameter");
	return v_unk("uninitialised stack");
}

static int visit(struct ctx *c, const struct fn *f, int i, struct loc l, int qid)
{
	struct vkey k = { f, i, qid, l.reg, l.base, l.size, l.off, c->gen };
	size_t h, mask_ = VISIT_SLOTS - 1;

	h = ((uintptr_t)f * 31 + i * 131 + qid * 7919 + (l.reg + 1) * 17 +
	     l.base * 101 + (size_t)l.off * 13) & mask_;
	for (;; h = (h + 1) & mask_) {
		struct vkey *e = &c->vis[h];

		if (e->gen != c->gen) {
			*e = k;
			return 1;
		}
		if (e->f == f && e->i == i && e->qid == k.qid && e->reg == k.reg &&
		    e->base == k.base && e->size == k.size && e->off == k.off)
			return 0;
	}
}

static int writes_reg(const struct fn *f, const cs_insn *in, int r)
{
	cs_regs rr, rw;
	uint8_t nr, nw, k;

	if (cs_regs_access(f->cs, in, rr, &nr, rw, &nw) != CS_ERR_OK)
		return 1;
	for (k = 0; k < nw; k++)
		if (reg_family(rw[k]) == r)
			return 1;
	return 0;
}

/*
 * The static or stack address a register (or stack slot, for i386
 * arguments) holds before instruction i: a short straight-line walk back.
 * *kind: 1 stack slot in *slot, 2 static address in *addr, 0 neither.
 */
static int addr_of(struct fn *f, int i, struct loc l,
		   struct loc *slot, uint64_t *addr)
{
	int64_t add = 0;
	int steps;

	for (steps = 0; steps < 64 && i > 0; steps++) {
		const cs_insn *in;
		const cs_x86 *x;
		const cs_x86_op *o0, *o1;
		int p;

		/* The single predecessor: fall-through, or one jump. */
		if (f->pred_first[i + 1] - f->pred_first[i] > 0)
			return 0;
		p = i - 1;
		in = &f->insn[p];
		if (ends_flow(in))
			return 0;
		x = &in->detail->x86;
		o0 = &x->operands[0];
		o1 = &x->operands[1];
		i = p;
		if (l.reg != R_NONE) {
			if (in->id == X86_INS_CALL) {
				int t = pc_thunk(f, in);

				if (t == l.reg || (t == R_NONE && caller_saved(f, l.reg)))
					return 0;
				continue;
			}
			if (!writes_reg(f, in, l.reg))
				continue;
			if (x->op_count < 1 || op_reg(o0) != l.reg)
				return 0;
			switch (in->id) {
			case X86_INS_LEA:
				if (mem_slot(f, p, &o1->mem, 0, slot)) {
					slot->off += add;
					return 1;
				}
				if (mem_static(f, in, &o1->mem, addr)) {
					*addr += add;
					return 2;
				}
				return 0;
			case X86_INS_MOV:
				if (o1->type == X86_OP_IMM) {
					*addr = o1->imm + add;
					return 2;
				}
				if (op_reg(o1) == R_SP || op_reg(o1) == R_BP) {
					const struct frame *fr = &f->fr[p];
					int sp = op_reg(o1) == R_SP;

					if (!(sp ? fr->sp_base : fr->bp_base))
						return 0;
					*slot = l_slot(sp ? fr->sp_base : fr->bp_base,
						       (sp ? fr->sp_off : fr->bp_off) + add, 0);
					return 1;
				}
				if (op_reg(o1) != R_NONE) {
					l = l_reg(op_reg(o1));
					continue;
				}
				return 0;
			case X86_INS_ADD:
			case X86_INS_SUB:
				if (o1->type != X86_OP_IMM)
					return 0;
				add += in->id == X86_INS_ADD ? o1->imm : -o1->imm;
				continue;
			default:
				return 0;
			}
		}
		/*
		 * A stack slot (an i386 argument): the store or push that
		 * filled it, after the previous call; what is left below the
		 * stack pointer from before is another call's argument.
		 */
		if (in->id == X86_INS_CALL && pc_thunk(f, in) == R_NONE)
			return 0;
		{
			const cs_x86_op *src;
			struct loc s;

			if (in->id == X86_INS_PUSH && f->fr[p].sp_base) {
				s = l_slot(f->fr[p].sp_base,
					   f->fr[p].sp_off - o0->size, o0->size);
				src = o0;
			} else if (in->id == X86_INS_MOV && o0->type == X86_OP_MEM &&
				   mem_slot(f, p, &o0->mem, o0->size, &s)) {
				src = o1;
			} else {
				continue;
			}
			if (!overlaps(s, l))
				continue;
			if (src->type == X86_OP_IMM) {
				*addr = (uint32_t)src->imm + add;
				return 2;
			}
			if (op_reg(src) == R_NONE)
				return 0;
			l = l_reg(op_reg(src));
		}
	}
	return 0;
}

/* Argument k of the call at instruction i, as a location. */
static int arg_loc(const struct fn *f, int i, int k, struct loc *l)
{
	static const int regs[] = { R_DI, R_SI, R_DX, R_CX, R_8, R_9 };

	if (f->im->bits == 64) {
		if (k >= 6)
			return 0;
		*l = l_reg(regs[k]);
		return 1;
	}
	if (!f->fr[i].sp_base)
		return 0;
	*l = l_slot(f->fr[i].sp_base, f->fr[i].sp_off + 4 * k, 4);
	return 1;
}

/*
 * The stack slot a memory operand names at instruction p, also through a
 * register that holds a stack address (mov rbx, rsp; ... [rbx+8]).
 */
static int mem_slot_deep(struct fn *f, int p,
			 const x86_op_mem *m, int size, struct loc *out)
{
	uint64_t addr;
	int b = reg_family(m->base);

	if (mem_slot(f, p, m, size, out))
		return 1;
	if (b == R_NONE || b == R_SP || b == R_BP || m->index != X86_REG_INVALID ||
	    m->segment != X86_REG_INVALID)
		return 0;
	if (addr_of(f, p, l_reg(b), out, &addr) != 1)
		return 0;
	out->off += m->disp;
	out->size = size ? size : 4;
	return 1;
}

static int string_at(const struct image *im, uint64_t a)
{
	static const char *const devs[] = { "/dev/urandom", "/dev/random", "/dev/arc4" };
	size_t k;

	for (k = 0; k < 3; k++) {
		const uint8_t *p = ro_bytes(im, a, strlen(devs[k]) + 1);

		if (p && memcmp(p, devs[k], strlen(devs[k]) + 1) == 0)
			return 1;
	}
	return 0;
}

/* Does the function name /dev/urandom (or /dev/random, /dev/arc4)? */
static int fn_urandom(struct fn *f)
{
	size_t i;
	int k;

	if (f->urandom >= 0)
		return f->urandom;
	f->urandom = 0;
	for (i = 0; i < f->n && !f->urandom; i++) {
		const cs_x86 *x = &f->insn[i].detail->x86;

		for (k = 0; k < x->op_count; k++) {
			const cs_x86_op *o = &x->operands[k];
			uint64_t a;

			if ((o->type == X86_OP_MEM &&
			     mem_static(f, &f->insn[i], &o->mem, &a) &&
			     string_at(f->im, a)) ||
			    (o->type == X86_OP_IMM && string_at(f->im, o->imm)))
				f->urandom = 1;
		}
	}
	return f->urandom;
}

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
static int call_writes(struct fn *f, int p, struct loc l,
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

static struct val call_result(struct ctx *c, const char *name, int64_t local,
			      int depth);

/* A source operand's value before instruction p. */
static struct val operand(struct ctx *c, struct fn *f, int p,
			  const cs_x86_op *o, int depth)
{
	struct loc s;
	uint64_t a;
	const uint8_t *b;

	switch (o->type) {
	case X86_OP_IMM:
		return v_const(mask(o->imm, o->size));
	case X86_OP_REG:
		if (reg_family(o->reg) == R_NONE)
			return v_unk("special register");
		return at(c, f, p, l_reg(reg_family(o->reg)), depth + 1);
	case X86_OP_MEM:
		if (mem_slot_deep(f, p, &o->mem, o->size, &s)) {
				return at(c, f, p, s, depth + 1);
		}
		if (mem_static(f, &f->insn[p], &o->mem, &a)) {
			if ((b = ro_bytes(f->im, a, o->size)) != NULL) {
				if (o->size > 8)
					return v_const_of("a vector constant");
				return v_const(le_bytes(b, o->size));
			}
			return v_unk("load of a global variable");
		}
		return v_unk("load through a pointer");
	default:
		return v_unk("operand");
	}
}

/* Copies its second operand to its first, widened or not. */
static int is_move(unsigned id)
{
	switch (id) {
	case X86_INS_MOV: case X86_INS_MOVABS: case X86_INS_MOVZX:
	case X86_INS_MOVSX: case X86_INS_MOVSXD: case X86_INS_MOVD:
	case X86_INS_MOVQ: case X86_INS_MOVDQA: case X86_INS_MOVDQU:
	case X86_INS_MOVAPS: case X86_INS_MOVUPS:
		return 1;
	}
	return 0;
}

static int same_reg_op(const cs_x86 *x)
{
	return x->op_count == 2 && x->operands[0].type == X86_OP_REG &&
	       x->operands[1].type == X86_OP_REG &&
	       reg_family(x->operands[0].reg) == reg_family(x->operands[1].reg);
}

/* Instruction p writes register l.reg: what it writes. */
static struct val def_reg(struct ctx *c, struct fn *f, int p, struct loc l,
			  int depth)
{
	const cs_insn *in = &f->insn[p];
	const cs_x86 *x = &in->detail->x86;
	const cs_x86_op *o0 = &x->operands[0], *o1 = &x->operands[1];
	int d0 = x->op_count ? op_reg(o0) : R_NONE;
	struct loc s;
	struct val v;

	if (in->id == X86_INS_CALL) {
		int64_t local;
		const char *name = callee(f, in, &local);

		if (l.reg != R_AX)
			return v_unk("register clobbered by a call");
		return call_result(c, name, local, depth);
	}
	switch (in->id) {
	case X86_INS_RDTSC:
	case X86_INS_RDTSCP:
		return v_ent(SRC_TSC);
	case X86_INS_RDRAND:
	case X86_INS_RDSEED:
		return v_ent(SRC_GETRANDOM);
	case X86_INS_CDQE:
	case X86_INS_CWDE:
	case X86_INS_CBW:
	case X86_INS_CDQ:
	case X86_INS_CQO:
	case X86_INS_CWD:
		return at(c, f, p, l_reg(R_AX), depth + 1);
	case X86_INS_POP:
		if (!f->fr[p].sp_base)
			return v_unk("pop from an unknown stack");
		s = l_slot(f->fr[p].sp_base, f->fr[p].sp_off, o0->size);
		return at(c, f, p, s, depth + 1);
	}
	if (d0 != l.reg)	/* an implicit write: mul, div, string ops... */
		return v_unk(in->mnemonic);
	if (is_move(in->id))
		return operand(c, f, p, o1, depth);
	switch (in->id) {
	case X86_INS_XOR:
	case X86_INS_SUB:
	case X86_INS_PXOR:
	case X86_INS_XORPS:
	case X86_INS_PSUBB:
		if (same_reg_op(x))
			return v_const(0);
		/* fall through */
	case X86_INS_ADD:
	case X86_INS_ADC:
	case X86_INS_SBB:
	case X86_INS_OR:
	case X86_INS_AND:
	case X86_INS_SHL:
	case X86_INS_SHR:
	case X86_INS_SAR:
	case X86_INS_ROL:
	case X86_INS_ROR:
	case X86_INS_SHLD:
	case X86_INS_SHRD:
	case X86_INS_IMUL:
	case X86_INS_POR:
	case X86_INS_PAND:
	case X86_INS_PADDD:
	case X86_INS_PADDQ:
	case X86_INS_PUNPCKLQDQ:
	case X86_INS_PUNPCKLDQ:
	case X86_INS_PINSRD:
	case X86_INS_PINSRQ:
	case X86_INS_PINSRW:
		if (x->op_count == 3 && in->id == X86_INS_IMUL)
			return v_arith(operand(c, f, p, o1, depth),
				       operand(c, f, p, &x->operands[2], depth),
				       in->id);
		if (x->op_count == 1)	/* one-operand imul: rdx:rax */
			break;
		v = at(c, f, p, l, depth + 1);
		return v_arith(v, operand(c, f, p, o1, depth), in->id);
	case X86_INS_NEG:
	case X86_INS_NOT:
	case X86_INS_INC:
	case X86_INS_DEC:
	case X86_INS_BSWAP:
		v = at(c, f, p, l, depth + 1);
		if ((v.flags & V_HASVAL) && in->id == X86_INS_INC)
			v.value++;
		else if ((v.flags & V_HASVAL) && in->id == X86_INS_DEC)
			v.value--;
		else
			v.flags &= ~V_HASVAL;
		return v;
	case X86_INS_LEA: {
		const x86_op_mem *m = &o1->mem;
		uint64_t a;
		struct val b = V_EMPTY;

		if (mem_slot(f, p, m, 0, &s) || reg_family(m->base) == R_SP)
			return v_unk("address of a stack variable");
		if (mem_static(f, in, m, &a))
			return v_unk("address of a static variable");
		if (m->base != X86_REG_INVALID) {
				b = at(c, f, p, l_reg(reg_family(m->base)), depth + 1);
		}
		if (m->index != X86_REG_INVALID) {
			struct val iv;

				iv = at(c, f, p, l_reg(reg_family(m->index)), depth + 1);
			if (iv.flags & V_HASVAL)
				iv.value *= m->scale;
			b = v_arith(b, iv, X86_INS_ADD);
		}
		return v_arith(b, v_const(m->disp), X86_INS_LEA);
	}
	case X86_INS_XCHG:
		return operand(c, f, p, o1, depth);
	default:
		if (strncmp(in->mnemonic, "cmov", 4) == 0) {
				v = at(c, f, p, l, depth + 1);
			return v_merge(v, operand(c, f, p, o1, depth));
		}
		break;
	}
	return v_unk(in->mnemonic);
}

/* Instruction p stores to a slot overlapping l: the value it stores. */
static struct val def_slot_value(struct ctx *c, struct fn *f, int p,
				 struct loc l, int depth)
{
	const cs_insn *in = &f->insn[p];
	const cs_x86 *x = &in->detail->x86;

	if (in->id == X86_INS_PUSH)
		return operand(c, f, p, &x->operands[0], depth);
	if (is_move(in->id))
		return operand(c, f, p, &x->operands[1], depth);
	switch (in->id) {
	case X86_INS_ADD:
	case X86_INS_SUB:
	case X86_INS_XOR:
	case X86_INS_OR:
	case X86_INS_AND:
	case X86_INS_SHL:
	case X86_INS_SHR: {
		struct val v;

		v = at(c, f, p, l, depth + 1);
		return v_arith(v, operand(c, f, p, &x->operands[1], depth), in->id);
	}
	}
	return v_unk(in->mnemonic);
}

/*
 * Instruction p stores slot s, which overlaps l: what l then holds (the
 * stored value shifted to l's bytes, when the store is wider).
 */
static struct val def_slot(struct ctx *c, struct fn *f, int p, struct loc l,
			   struct loc s, int depth)
{
	struct val v = def_slot_value(c, f, p, l, depth);

	if ((v.flags & V_HASVAL) && l.off >= s.off && l.off + l.size <= s.off + s.size)
		v.value = mask(v.value >> (8 * (l.off - s.off)), l.size);
	else
		v.flags &= ~V_HASVAL;
	return v;
}
/* Does instruction p write location l?  Then *v is what it writes. */
static int defines(struct ctx *c, struct fn *f, int p, struct loc l,
		   int depth, struct val *v)
{
	const cs_insn *in = &f->insn[p];
	const cs_x86 *x = &in->detail->x86;
	int k;

	if (l.reg != R_NONE) {
		int t = in->id == X86_INS_CALL ? pc_thunk(f, in) : R_NONE;

		if (t != R_NONE) {
			if (t != l.reg)
				return 0;
			*v = v_unk("program counter");
			return 1;
		}
		if (in->id == X86_INS_CALL ? !caller_saved(f, l.reg)
					   : !writes_reg(f, in, l.reg))
			return 0;
		*v = def_reg(c, f, p, l, depth);
		return 1;
	}
	if (in->id == X86_INS_CALL)
		return call_writes(f, p, l, v);
	if (in->id == X86_INS_PUSH) {
		struct loc s;

		if (!f->fr[p].sp_base)
			return 0;
		s = l_slot(f->fr[p].sp_base, f->fr[p].sp_off - x->operands[0].size,
			   x->operands[0].size);
		if (!overlaps(s, l))
			return 0;
		*v = def_slot(c, f, p, l, s, depth);
		return 1;
	}
	for (k = 0; k < x->op_count; k++) {
		const cs_x86_op *o = &x->operands[k];
		struct loc s;

		if (o->type == X86_OP_MEM && (o->access & CS_AC_WRITE) &&
		    mem_slot_deep(f, p, &o->mem, o->size, &s) && overlaps(s, l)) {
			*v = def_slot(c, f, p, l, s, depth);
			return 1;
		}
	}
	return 0;
}

/*
 * What location l holds just before instruction i, over every path that
 * reaches i.  Straight-line code is walked in a loop; a join recurses once
 * per predecessor.  (i, l) pairs already seen in this query add nothing,
 * which cuts loops.
 */
static struct val at_q(struct ctx *c, struct fn *f, int i, struct loc l,
			int depth, int qid)
{
	if (depth > MAX_DEPTH)
		return v_unk("too deep");
	for (;;) {
		int np, fall, k;
		struct val v, acc = V_EMPTY;

		if (++c->steps > MAX_STEPS)
			return v_unk("too long");
		if (!visit(c, f, i, l, qid))
			return V_EMPTY;
		np = f->pred_first[i + 1] - f->pred_first[i];
		fall = i > 0 && !ends_flow(&f->insn[i - 1]);
		if (np + fall == 0)
			return at_start(f, i, l);
		if (np + fall == 1) {
			int p = fall ? i - 1 : f->preds[f->pred_first[i]];

			if (defines(c, f, p, l, depth, &v))
				return v;
			i = p;
			continue;
		}
		for (k = -fall; k < np; k++) {
			int p = k < 0 ? i - 1 : f->preds[f->pred_first[i] + k];

			if (!defines(c, f, p, l, depth, &v))
				v = at_q(c, f, p, l, depth + 1, qid);
			acc = v_merge(acc, v);
		}
		return acc;
	}
}

/* A new query: its own set of visited points. */
static struct val at(struct ctx *c, struct fn *f, int i, struct loc l, int depth)
{
	return at_q(c, f, i, l, depth, ++c->qid);
}

/* The value a call returns in rax: an entropy source, or a local
 * function followed to its returns, or unknown. */
static struct val call_result(struct ctx *c, const char *name, int64_t local,
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

/* ---- 3. Call sites --------------------------------------------------------- */

static int is_seeder(const char *name)
{
	int k = name ? family_index(name) : -1;

	return k >= 0 && families[k].role != ROLE_DRAW ? k : -1;
}

/* The instruction at candidate address a, if it really is a call or jump
 * there (the byte scan also finds E8 bytes inside other instructions). */
static int site_insn(struct fn *f, uint64_t a)
{
	int i = insn_index(f, a);

	if (i < 0 && a > f->start)
		i = insn_index(f, a - 1);	/* bnd or notrack prefix */
	if (i < 0 || (f->insn[i].id != X86_INS_CALL && f->insn[i].id != X86_INS_JMP))
		return -1;
	return i;
}

static struct val seed_value(struct ctx *c, struct fn *f, int i, int family)
{
	const struct family *fam = &families[family];
	struct loc l, slot;
	uint64_t addr;
	struct val v = V_EMPTY;
	int k;

	if (!arg_loc(f, i, 0, &l))
		return v_unk("argument on an unknown stack");
	if (fam->role == ROLE_SEED_DEV)
		return v_ent(SRC_GETRANDOM);
	if (fam->role == ROLE_SEED) {
		return at(c, f, i, l, 0);
	}
	/* seed48(), lcong48(): the unsigned shorts the argument points at. */
	switch (addr_of(f, i, l, &slot, &addr)) {
	case 1:
		for (k = 0; k < fam->nwords; k++) {
			struct val w;

				w = at(c, f, i, l_slot(slot.base, slot.off + 2 * k, 2), 0);
			if (k > 0 && (v.flags & V_HASVAL) && (w.flags & V_HASVAL) && k < 3)
				w.value = v.value | (w.value & 0xffff) << (16 * k);
			else if (k > 0)
				w.flags &= ~V_HASVAL;
			v = k ? v_arith(v, w, X86_INS_OR) : w;
			if (k == 0 && (v.flags & V_HASVAL))
				v.value &= 0xffff;
		}
		return v;
	case 2: {
		const uint8_t *b = ro_bytes(f->im, addr, 2 * fam->nwords);

		if (b)
			return v_const(le_bytes(b, 6));
		return v_unk("a global array");
	}
	}
	return v_unk("array of unknown origin");
}

static void classify(struct val v, struct seed_site *s, int family)
{
	int bits = strcmp(families[family].name, "srand48") == 0 ? 64 : 32;

	if (v.flags & V_UNK || !v.flags) {
		s->class = CLASS_UNKNOWN;
		snprintf(s->why, sizeof(s->why), "%s",
			 v.why ? v.why : "no definition found");
	} else if (v.flags & V_CONST) {
		s->class = CLASS_CONSTANT;
		s->has_value = !!(v.flags & V_HASVAL);
		if (!s->has_value)
			snprintf(s->why, sizeof(s->why), "%s",
				 v.cwhy ? v.cwhy : "a constant of unknown value");
		s->value = families[family].role == ROLE_SEED_ARRAY ? v.value :
			   mask(v.value, bits / 8);
	} else {
		s->class = CLASS_ENTROPY;
		s->sources = v.sources;
	}
}

static void add_site(struct file_result *r, size_t *cap, struct seed_site s)
{
	if (r->nseeds == *cap) {
		*cap = *cap ? 2 * *cap : 4;
		r->seeds = realloc(r->seeds, *cap * sizeof(*r->seeds));
		if (!r->seeds)
			abort();
	}
	r->seeds[r->nseeds++] = s;
}

/* A seeder reached from the candidate call or jump at address a, or -1. */
static int candidate(const struct image *im, const uint8_t *p, uint64_t a,
		     size_t left)
{
	int32_t d;
	uint64_t t;

	if (left < 5)
		return -1;
	if (p[0] == 0xe8 || p[0] == 0xe9) {
		memcpy(&d, p + 1, 4);
		t = a + 5 + (int64_t)d;
		if (im->bits == 32)
			t = (uint32_t)t;
		return is_seeder(image_stub(im, t));
	}
	if (p[0] != 0xff || left < 6)
		return -1;
	memcpy(&d, p + 2, 4);
	if (p[1] == 0x15 || p[1] == 0x25)	/* [rip+d], or [abs32] on i386 */
		t = im->bits == 64 ? a + 6 + (int64_t)d : (uint32_t)d;
	else if (im->bits == 32 && (p[1] == 0x93 || p[1] == 0xa3))
		t = (uint32_t)(im->got + d);	/* [ebx+d] */
	else
		return -1;
	return is_seeder(image_slot(im, t));
}

int seed_scan(const struct image *im, struct file_result *r)
{
	struct ctx c = { .im = im };
	uint32_t seen = 0;
	size_t cap = 0, i, k;
	int fam;

	if (cs_open(CS_ARCH_X86, im->bits == 64 ? CS_MODE_64 : CS_MODE_32,
		    &c.cs) != CS_ERR_OK)
		return -1;
	cs_option(c.cs, CS_OPT_DETAIL, CS_OPT_ON);
	c.vis = calloc(VISIT_SLOTS, sizeof(*c.vis));
	for (k = 0; k < im->nsecs; k++) {
		const struct section *s = &im->secs[k];

		if (!s->exec || !s->data || strncmp(s->name, ".plt", 4) == 0)
			continue;
		for (i = 0; i + 5 <= s->size; i++) {
			struct seed_site site = { 0 };
			struct fn *f;
			int n;

			fam = candidate(im, s->data + i, s->addr + i, s->size - i);
			if (fam < 0 || !(f = fn_get(&c, s->addr + i)) ||
			    (n = site_insn(f, s->addr + i)) < 0)
				continue;
			c.gen++;
			c.steps = 0;
			site.family = fam;
			site.address = f->insn[n].address;
			classify(seed_value(&c, f, n, fam), &site, fam);
			add_site(r, &cap, site);
			seen |= 1u << fam;
		}
	}
	/* A seeder imported but never called directly: through a pointer? */
	for (fam = 0; fam < nfamilies; fam++) {
		struct seed_site site = { .family = fam, .class = CLASS_UNKNOWN };

		if (!(r->imports & (1u << fam)) || families[fam].role == ROLE_DRAW ||
		    (seen & (1u << fam)))
			continue;
		snprintf(site.why, sizeof(site.why), "no direct call found");
		add_site(r, &cap, site);
	}
	for (i = 0; i < c.nfns; i++)
		fn_free(c.fns[i]);
	free(c.fns);
	free(c.vis);
	cs_close(&c.cs);
	return 0;
}
