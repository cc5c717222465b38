/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arc4-audit: which programs depend on seeded determinism of rand() and
 * friends.  Shared between elf.c (reading one file: imports, PLT, function
 * starts), seed.c and the other files trace.h lists (disassembly and the
 * backward trace of a seed argument) and main.c (walking, threads, dpkg,
 * output).
 */
#ifndef ARC4_AUDIT_H
#define ARC4_AUDIT_H

#include <stddef.h>
#include <stdint.h>

/* ---- The families and the calls that matter around them ---------------- */

enum fam_role {
	ROLE_DRAW,		/* draws from a family: rand(), drand48(), ... */
	ROLE_SEED,		/* seeds it; argument 0 is the seed value */
	ROLE_SEED_ARRAY,	/* seeds it; argument 0 points at nwords shorts */
	ROLE_SEED_DEV,		/* seeds it from entropy by definition */
};

struct family {
	const char *name;
	enum fam_role role;
	int nwords;		/* ROLE_SEED_ARRAY: unsigned shorts pointed at */
};

extern const struct family families[];
extern const int nfamilies;

/* Index into families[] of a symbol name, or -1. */
int family_index(const char *name);

/* ---- Seed classes ------------------------------------------------------- */

enum seed_class { CLASS_CONSTANT, CLASS_ENTROPY, CLASS_UNKNOWN };

/* Where entropy came from, for the report. */
enum {
	SRC_TIME = 1 << 0,
	SRC_GETTIMEOFDAY = 1 << 1,
	SRC_CLOCK_GETTIME = 1 << 2,
	SRC_PID = 1 << 3,
	SRC_PPID = 1 << 4,
	SRC_GETRANDOM = 1 << 5,
	SRC_URANDOM = 1 << 6,
	SRC_TSC = 1 << 7,
	SRC_ARC4RANDOM = 1 << 8,
	SRC_TID = 1 << 9,
	SRC_NSOURCES = 10,
};

extern const char *const source_names[SRC_NSOURCES];

struct seed_site {
	int family;		/* index into families[] */
	uint64_t address;	/* of the call; 0 when no call was found */
	enum seed_class class;
	int has_value;
	uint64_t value;		/* CLASS_CONSTANT with has_value */
	unsigned sources;	/* CLASS_ENTROPY: SRC_* bits */
	char why[48];		/* CLASS_UNKNOWN: what the trace stopped at */
};

enum verdict {
	VERDICT_NONE,			/* does not use the families */
	VERDICT_NEEDS_DETERMINISTIC,
	VERDICT_REVIEW,
	VERDICT_STRONG_OK,
	VERDICT_UNSEEDED,
	VERDICT_NOT_ANALYSED,		/* an ELF file of another architecture */
};

extern const char *const verdict_names[];

/* What one file gave. */
struct file_result {
	int is_elf;		/* an executable or shared object */
	int is_executable;	/* ET_EXEC, or ET_DYN with PT_INTERP */
	char machine[24];	/* VERDICT_NOT_ANALYSED: e_machine's name */
	uint32_t imports;	/* bit i: families[i] imported */
	struct seed_site *seeds;
	size_t nseeds;
	enum verdict verdict;
	char error[96];		/* set when the file could not be read */
};

/* elf.c: classify one file; fills r.  Thread-safe. */
void audit_file(const char *path, struct file_result *r);
void audit_init(void);

#endif /* ARC4_AUDIT_H */
