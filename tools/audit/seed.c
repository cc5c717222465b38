// SPDX-License-Identifier: GPL-2.0
/*
 * Where does a seed come from?  Every call of a seeder through the PLT or
 * the GOT, and the class of its seed argument: seed_scan().  The candidate
 * calls are found by a byte scan of the executable sections; the function
 * around each is decoded (fn.c) and the seed traced back to its origin
 * (value.c, through addr.c and call.c).
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

#include "trace.h"

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
	if (fam->role == ROLE_SEED)
		return at(c, f, i, l, 0);
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
