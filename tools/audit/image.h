/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One loaded x86 ELF file as the seed tracer (trace.h) sees it: its
 * allocated sections, the addresses through which it calls imported
 * functions, and where its functions start.  Filled by elf.c.
 */
#ifndef ARC4_AUDIT_IMAGE_H
#define ARC4_AUDIT_IMAGE_H

#include "audit.h"

struct section {
	const char *name;
	uint64_t addr, size;
	const uint8_t *data;	/* NULL for SHT_NOBITS */
	int exec, write;
};

/* An address that reaches an imported function: a PLT entry or GOT slot. */
struct import_ref {
	uint64_t addr;
	const char *name;
};

struct image {
	int bits;		/* 32 or 64 */
	uint64_t got;		/* i386: _GLOBAL_OFFSET_TABLE_ (DT_PLTGOT) */
	struct section *secs;
	size_t nsecs;
	struct import_ref *stubs;	/* PLT entries, sorted by addr */
	size_t nstubs;
	struct import_ref *slots;	/* GOT slots, sorted by addr */
	size_t nslots;
	uint64_t *fstarts;		/* function starts, sorted */
	size_t nfstarts;
};

/* The import that a direct call or jump to addr reaches, or NULL. */
const char *image_stub(const struct image *im, uint64_t addr);
/* The import whose GOT slot is at addr, or NULL. */
const char *image_slot(const struct image *im, uint64_t addr);
/* The section holding addr, or NULL. */
const struct section *image_section(const struct image *im, uint64_t addr);
/* [*start, *end) of the function holding addr, within its section. */
void image_function(const struct image *im, uint64_t addr,
		    uint64_t *start, uint64_t *end);

/* seed.c: find and classify every seeding call in im. */
int seed_scan(const struct image *im, struct file_result *r);

#endif /* ARC4_AUDIT_IMAGE_H */
