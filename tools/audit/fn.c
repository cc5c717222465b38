// SPDX-License-Identifier: GPL-2.0
/*
 * A function of the file, decoded once per file around a seeding call: its
 * instructions (capstone), the jumps into each, and the stack and frame
 * pointers before each, so that [rsp+8] and [rbp-24] name the same stack
 * slot wherever the function reads or writes it.
 */
#include <stdlib.h>
#include <string.h>

#include "trace.h"

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

/* `lea rsp/rbp, [rsp/rbp + disp]` into d0: the new stack or frame pointer. */
static struct frame frame_lea(struct frame s, int d0, const cs_x86_op *o1)
{
	int b = reg_family(o1->mem.base);
	int nb = b == R_SP ? s.sp_base : b == R_BP ? s.bp_base : 0;
	int64_t no = (b == R_SP ? s.sp_off : s.bp_off) + o1->mem.disp;

	if (d0 == R_SP)
		s.sp_base = nb, s.sp_off = no;
	else
		s.bp_base = nb, s.bp_off = no;
	return s;
}

/* Anything else that writes rsp or rbp leaves them unknown. */
static struct frame frame_clobber(const struct fn *f, const cs_insn *in,
				  struct frame s)
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
	return s;
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
		if ((d0 == R_SP || d0 == R_BP) && o1->mem.index == X86_REG_INVALID)
			return frame_lea(s, d0, o1);
		break;
	}
	return frame_clobber(f, in, s);
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

void fn_free(struct fn *f)
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
struct fn *fn_get(struct ctx *c, uint64_t addr)
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
int fn_urandom(struct fn *f)
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
