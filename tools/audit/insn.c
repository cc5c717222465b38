// SPDX-License-Identifier: GPL-2.0
/*
 * x86 instructions as the seed tracer reads them: register families, jumps,
 * the calling conventions' registers and argument slots, memory operands
 * that name a stack slot or a static address, and calls through the PLT or
 * the GOT.
 */
#include "trace.h"

int reg_family(unsigned r)
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

int op_reg(const cs_x86_op *op)
{
	return op->type == X86_OP_REG ? reg_family(op->reg) : R_NONE;
}

int is_jump(csh cs, const cs_insn *in)
{
	return cs_insn_group(cs, in, CS_GRP_JUMP);
}

int insn_index(const struct fn *f, uint64_t addr)
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

int64_t jump_target(const cs_insn *in)
{
	const cs_x86 *x = &in->detail->x86;

	if (x->op_count == 1 && x->operands[0].type == X86_OP_IMM)
		return x->operands[0].imm;
	return -1;
}

int writes_reg(const struct fn *f, const cs_insn *in, int r)
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

int is_arg_reg(const struct fn *f, int r)
{
	return f->im->bits == 64 && (r == R_DI || r == R_SI || r == R_DX ||
				     r == R_CX || r == R_8 || r == R_9);
}

int caller_saved(const struct fn *f, int r)
{
	if (r >= 16)
		return 1;
	if (f->im->bits == 32)
		return r == R_AX || r == R_CX || r == R_DX;
	return r == R_AX || r == R_CX || r == R_DX || r == R_SI ||
	       r == R_DI || (r >= 8 && r <= 11);
}

/* Argument k of the call at instruction i, as a location. */
int arg_loc(const struct fn *f, int i, int k, struct loc *l)
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

/* The stack slot a memory operand names at instruction i, if any. */
int mem_slot(const struct fn *f, int i, const x86_op_mem *m, int size,
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
int mem_static(const struct fn *f, const cs_insn *in,
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

/* Bytes of a read-only section at addr, or NULL. */
const uint8_t *ro_bytes(const struct image *im, uint64_t addr, size_t len)
{
	const struct section *s = image_section(im, addr);

	if (!s || s->write || !s->data || addr + len > s->addr + s->size)
		return NULL;
	return s->data + (addr - s->addr);
}

/* The import a call or jump instruction reaches; *local its local target. */
const char *callee(const struct fn *f, const cs_insn *in, int64_t *local)
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
int pc_thunk(const struct fn *f, const cs_insn *in)
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
