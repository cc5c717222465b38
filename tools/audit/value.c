// SPDX-License-Identifier: GPL-2.0
/*
 * What a location (register or stack slot) holds before an instruction,
 * found by walking predecessors back to the instructions that wrote it: a
 * constant, entropy (time(), getpid(), gettimeofday(), ...), or unknown.
 * When paths disagree, all the classes they give are kept; seed.c decides
 * (unknown over constant over entropy).
 */
#include <string.h>

#include "trace.h"

/* Either of two paths. */
struct val v_merge(struct val a, struct val b)
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
struct val v_arith(struct val a, struct val b, unsigned id)
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
		if (mem_slot_deep(f, p, &o->mem, o->size, &s))
			return at(c, f, p, s, depth + 1);
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

/* neg, not, inc, dec or bswap of register l.reg at p: the result. */
static struct val def_reg_unary(struct ctx *c, struct fn *f, int p,
				struct loc l, int depth)
{
	unsigned id = f->insn[p].id;
	struct val v = at(c, f, p, l, depth + 1);

	if ((v.flags & V_HASVAL) && id == X86_INS_INC)
		v.value++;
	else if ((v.flags & V_HASVAL) && id == X86_INS_DEC)
		v.value--;
	else
		v.flags &= ~V_HASVAL;
	return v;
}

/* lea at p: the address it computes, a value unless it is a variable's. */
static struct val def_lea(struct ctx *c, struct fn *f, int p, int depth)
{
	const cs_insn *in = &f->insn[p];
	const x86_op_mem *m = &in->detail->x86.operands[1].mem;
	struct val b = V_EMPTY;
	struct loc s;
	uint64_t a;

	if (mem_slot(f, p, m, 0, &s) || reg_family(m->base) == R_SP)
		return v_unk("address of a stack variable");
	if (mem_static(f, in, m, &a))
		return v_unk("address of a static variable");
	if (m->base != X86_REG_INVALID)
		b = at(c, f, p, l_reg(reg_family(m->base)), depth + 1);
	if (m->index != X86_REG_INVALID) {
		struct val iv = at(c, f, p, l_reg(reg_family(m->index)), depth + 1);

		if (iv.flags & V_HASVAL)
			iv.value *= m->scale;
		b = v_arith(b, iv, X86_INS_ADD);
	}
	return v_arith(b, v_const(m->disp), X86_INS_LEA);
}

/* Instruction p computes register l.reg, its first operand: the result. */
static struct val def_reg_op(struct ctx *c, struct fn *f, int p, struct loc l,
			     int depth)
{
	const cs_insn *in = &f->insn[p];
	const cs_x86 *x = &in->detail->x86;
	const cs_x86_op *o1 = &x->operands[1];
	struct val v;

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
		return def_reg_unary(c, f, p, l, depth);
	case X86_INS_LEA:
		return def_lea(c, f, p, depth);
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

/* Instruction p writes register l.reg: what it writes. */
static struct val def_reg(struct ctx *c, struct fn *f, int p, struct loc l,
			  int depth)
{
	const cs_insn *in = &f->insn[p];
	const cs_x86 *x = &in->detail->x86;
	const cs_x86_op *o0 = &x->operands[0], *o1 = &x->operands[1];
	int d0 = x->op_count ? op_reg(o0) : R_NONE;
	struct loc s;

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
	return def_reg_op(c, f, p, l, depth);
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
struct val at(struct ctx *c, struct fn *f, int i, struct loc l, int depth)
{
	return at_q(c, f, i, l, depth, ++c->qid);
}
