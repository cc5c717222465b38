// SPDX-License-Identifier: GPL-2.0
/*
 * The address a pointer argument holds: a short straight-line walk back
 * from the call to the lea, mov or push that set it, for the buffers that
 * time(), read() and seed48() are handed.
 */
#include "trace.h"

enum { ADDR_WALK = -1 };	/* not found yet: walk back one more */

/*
 * The walk's step over instruction p while register l->reg is followed:
 * the address it sets (1, 2), nothing to find (0), or ADDR_WALK with
 * l->reg and *add updated (a copy from another register, a constant
 * added or subtracted).
 */
static int addr_reg_step(struct fn *f, int p, struct loc *l, int64_t *add,
			 struct loc *slot, uint64_t *addr)
{
	const cs_insn *in = &f->insn[p];
	const cs_x86 *x = &in->detail->x86;
	const cs_x86_op *o0 = &x->operands[0], *o1 = &x->operands[1];

	if (in->id == X86_INS_CALL) {
		int t = pc_thunk(f, in);

		if (t == l->reg || (t == R_NONE && caller_saved(f, l->reg)))
			return 0;
		return ADDR_WALK;
	}
	if (!writes_reg(f, in, l->reg))
		return ADDR_WALK;
	if (x->op_count < 1 || op_reg(o0) != l->reg)
		return 0;
	switch (in->id) {
	case X86_INS_LEA:
		if (mem_slot(f, p, &o1->mem, 0, slot)) {
			slot->off += *add;
			return 1;
		}
		if (mem_static(f, in, &o1->mem, addr)) {
			*addr += *add;
			return 2;
		}
		return 0;
	case X86_INS_MOV:
		if (o1->type == X86_OP_IMM) {
			*addr = o1->imm + *add;
			return 2;
		}
		if (op_reg(o1) == R_SP || op_reg(o1) == R_BP) {
			const struct frame *fr = &f->fr[p];
			int sp = op_reg(o1) == R_SP;

			if (!(sp ? fr->sp_base : fr->bp_base))
				return 0;
			*slot = l_slot(sp ? fr->sp_base : fr->bp_base,
				       (sp ? fr->sp_off : fr->bp_off) + *add, 0);
			return 1;
		}
		if (op_reg(o1) != R_NONE) {
			*l = l_reg(op_reg(o1));
			return ADDR_WALK;
		}
		return 0;
	case X86_INS_ADD:
	case X86_INS_SUB:
		if (o1->type != X86_OP_IMM)
			return 0;
		*add += in->id == X86_INS_ADD ? o1->imm : -o1->imm;
		return ADDR_WALK;
	default:
		return 0;
	}
}

/*
 * The walk's step over instruction p while stack slot *l (an i386
 * argument) is followed: the store or push that filled it, after the
 * previous call; what is left below the stack pointer from before is
 * another call's argument.  A static address stored there (2), nothing to
 * find (0), or ADDR_WALK, with *l the register stored there if one was.
 */
static int addr_slot_step(struct fn *f, int p, struct loc *l, int64_t add,
			  uint64_t *addr)
{
	const cs_insn *in = &f->insn[p];
	const cs_x86 *x = &in->detail->x86;
	const cs_x86_op *o0 = &x->operands[0], *o1 = &x->operands[1];
	const cs_x86_op *src;
	struct loc s;

	if (in->id == X86_INS_CALL && pc_thunk(f, in) == R_NONE)
		return 0;
	if (in->id == X86_INS_PUSH && f->fr[p].sp_base) {
		s = l_slot(f->fr[p].sp_base,
			   f->fr[p].sp_off - o0->size, o0->size);
		src = o0;
	} else if (in->id == X86_INS_MOV && o0->type == X86_OP_MEM &&
		   mem_slot(f, p, &o0->mem, o0->size, &s)) {
		src = o1;
	} else {
		return ADDR_WALK;
	}
	if (!overlaps(s, *l))
		return ADDR_WALK;
	if (src->type == X86_OP_IMM) {
		*addr = (uint32_t)src->imm + add;
		return 2;
	}
	if (op_reg(src) == R_NONE)
		return 0;
	*l = l_reg(op_reg(src));
	return ADDR_WALK;
}

/*
 * The static or stack address a register (or stack slot, for i386
 * arguments) holds before instruction i: a short straight-line walk back.
 * Returns 1 with the stack slot in *slot, 2 with the static address in
 * *addr, 0 when it found neither.
 */
int addr_of(struct fn *f, int i, struct loc l,
	    struct loc *slot, uint64_t *addr)
{
	int64_t add = 0;
	int steps, found;

	for (steps = 0; steps < 64 && i > 0; steps++) {
		/* The single predecessor: fall-through, or one jump. */
		if (f->pred_first[i + 1] - f->pred_first[i] > 0)
			return 0;
		i--;
		if (ends_flow(&f->insn[i]))
			return 0;
		if (l.reg != R_NONE)
			found = addr_reg_step(f, i, &l, &add, slot, addr);
		else
			found = addr_slot_step(f, i, &l, add, addr);
		if (found != ADDR_WALK)
			return found;
	}
	return 0;
}

/*
 * The stack slot a memory operand names at instruction p, also through a
 * register that holds a stack address (mov rbx, rsp; ... [rbx+8]).
 */
int mem_slot_deep(struct fn *f, int p,
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
