// SPDX-License-Identifier: GPL-2.0
/*
 * Reading one file with elfutils' libelf.
 *
 *   1. The families:   families[], family_index()
 *   2. The image:      sections, PLT entries and GOT slots of the imports,
 *                      function starts from .eh_frame_hdr and the symbols
 *   3. One file:       audit_file(): ELF or not, which architecture, which
 *                      families it imports, then seed.c on its call sites,
 *                      and the verdict
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <capstone/capstone.h>
#include <gelf.h>

#include "image.h"

/* ---- 1. The families ---------------------------------------------------- */

const struct family families[] = {
	{ "rand", ROLE_DRAW, 0 },
	{ "srand", ROLE_SEED, 0 },
	{ "random", ROLE_DRAW, 0 },
	{ "srandom", ROLE_SEED, 0 },
	{ "initstate", ROLE_SEED, 0 },
	{ "setstate", ROLE_DRAW, 0 },
	{ "srandomdev", ROLE_SEED_DEV, 0 },
	{ "drand48", ROLE_DRAW, 0 },
	{ "erand48", ROLE_DRAW, 0 },
	{ "lrand48", ROLE_DRAW, 0 },
	{ "nrand48", ROLE_DRAW, 0 },
	{ "mrand48", ROLE_DRAW, 0 },
	{ "jrand48", ROLE_DRAW, 0 },
	{ "srand48", ROLE_SEED, 0 },
	{ "seed48", ROLE_SEED_ARRAY, 3 },
	{ "lcong48", ROLE_SEED_ARRAY, 7 },
	{ "rand_r", ROLE_DRAW, 0 },
	{ "arc4random", ROLE_DRAW, 0 },
	{ "arc4random_buf", ROLE_DRAW, 0 },
	{ "arc4random_uniform", ROLE_DRAW, 0 },
};
const int nfamilies = sizeof(families) / sizeof(families[0]);

_Static_assert(sizeof(families) / sizeof(families[0]) <= 32,
	       "file_result.imports is a 32-bit mask");

int family_index(const char *name)
{
	int i;

	/* Cheap reject: every name holds "rand" or "seed" or "state". */
	if (!strstr(name, "rand") && !strstr(name, "seed") &&
	    !strstr(name, "state") && strcmp(name, "lcong48") != 0)
		return -1;
	for (i = 0; i < nfamilies; i++)
		if (strcmp(families[i].name, name) == 0)
			return i;
	return -1;
}

const char *const verdict_names[] = {
	[VERDICT_NONE] = "none",
	[VERDICT_NEEDS_DETERMINISTIC] = "needs-deterministic",
	[VERDICT_REVIEW] = "review",
	[VERDICT_STRONG_OK] = "strong-ok",
	[VERDICT_UNSEEDED] = "unseeded",
	[VERDICT_NOT_ANALYSED] = "not-analysed",
};

const char *const source_names[SRC_NSOURCES] = {
	"time", "gettimeofday", "clock_gettime", "getpid", "getppid",
	"getrandom", "urandom", "rdtsc", "arc4random", "gettid",
};

/* ---- 2. The image ------------------------------------------------------- */

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int ref_cmp(const void *a, const void *b)
{
	const struct import_ref *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static const char *ref_find(const struct import_ref *v, size_t n,
			    uint64_t addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].addr == addr)
			return v[mid].name;
		if (v[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const char *image_stub(const struct image *im, uint64_t addr)
{
	return ref_find(im->stubs, im->nstubs, addr);
}

const char *image_slot(const struct image *im, uint64_t addr)
{
	return ref_find(im->slots, im->nslots, addr);
}

const struct section *image_section(const struct image *im, uint64_t addr)
{
	size_t i;

	for (i = 0; i < im->nsecs; i++)
		if (addr >= im->secs[i].addr &&
		    addr - im->secs[i].addr < im->secs[i].size)
			return &im->secs[i];
	return NULL;
}

void image_function(const struct image *im, uint64_t addr,
		    uint64_t *start, uint64_t *end)
{
	const struct section *s = image_section(im, addr);
	size_t lo = 0, hi = im->nfstarts;

	*start = s ? s->addr : addr;
	*end = s ? s->addr + s->size : addr;
	/* The last start <= addr, and the first start > addr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (im->fstarts[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0 && im->fstarts[lo - 1] > *start)
		*start = im->fstarts[lo - 1];
	if (lo < im->nfstarts && im->fstarts[lo] < *end)
		*end = im->fstarts[lo];
}

/* A growable array of T. */
#define VEC_PUSH(v, n, cap, x) do {					\
	if ((n) == (cap)) {						\
		(cap) = (cap) ? 2 * (cap) : 64;				\
		(v) = realloc((v), (cap) * sizeof(*(v)));		\
		if (!(v))						\
			abort();					\
	}								\
	(v)[(n)++] = (x);						\
} while (0)

struct loader {
	Elf *elf;
	size_t shstrndx;
	struct image im;
	size_t cap_stubs, cap_slots, cap_fstarts;
};

static void load_sections(struct loader *l)
{
	Elf_Scn *scn = NULL;
	size_t n = 0, cap = 0;

	while ((scn = elf_nextscn(l->elf, scn)) != NULL) {
		GElf_Shdr sh;
		struct section s = { 0 };
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC))
			continue;
		s.name = elf_strptr(l->elf, l->shstrndx, sh.sh_name);
		s.addr = sh.sh_addr;
		s.size = sh.sh_size;
		s.exec = !!(sh.sh_flags & SHF_EXECINSTR);
		s.write = !!(sh.sh_flags & SHF_WRITE);
		if (sh.sh_type != SHT_NOBITS) {
			d = elf_rawdata(scn, NULL);
			if (d && d->d_size >= sh.sh_size)
				s.data = d->d_buf;
		}
		if (!s.name)
			s.name = "";
		VEC_PUSH(l->im.secs, n, cap, s);
	}
	l->im.nsecs = n;
}

/* GOT slots: every relocation against an undefined dynamic symbol. */
static void load_slots(struct loader *l)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(l->elf, scn)) != NULL) {
		GElf_Shdr sh, symsh;
		Elf_Scn *symscn;
		Elf_Data *d, *symd;
		size_t i, n;

		if (!gelf_getshdr(scn, &sh) ||
		    (sh.sh_type != SHT_RELA && sh.sh_type != SHT_REL))
			continue;
		symscn = elf_getscn(l->elf, sh.sh_link);
		if (!symscn || !gelf_getshdr(symscn, &symsh) ||
		    symsh.sh_type != SHT_DYNSYM)
			continue;
		d = elf_getdata(scn, NULL);
		symd = elf_getdata(symscn, NULL);
		if (!d || !symd || !sh.sh_entsize)
			continue;
		n = sh.sh_size / sh.sh_entsize;
		for (i = 0; i < n; i++) {
			GElf_Rela ra;
			GElf_Rel r;
			GElf_Sym sym;
			struct import_ref ref;
			size_t si;

			if (sh.sh_type == SHT_RELA) {
				if (!gelf_getrela(d, i, &ra))
					break;
				ref.addr = ra.r_offset;
				si = GELF_R_SYM(ra.r_info);
			} else {
				if (!gelf_getrel(d, i, &r))
					break;
				ref.addr = r.r_offset;
				si = GELF_R_SYM(r.r_info);
			}
			if (si == 0 || !gelf_getsym(symd, si, &sym) ||
			    sym.st_shndx != SHN_UNDEF)
				continue;
			ref.name = elf_strptr(l->elf, symsh.sh_link,
					      sym.st_name);
			if (ref.name && *ref.name)
				VEC_PUSH(l->im.slots, l->im.nslots,
					 l->cap_slots, ref);
		}
	}
	qsort(l->im.slots, l->im.nslots, sizeof(*l->im.slots), ref_cmp);
}

/*
 * PLT entries: each is an indirect jump through a GOT slot, after an
 * optional endbr; a call to the entry's first byte calls the slot's
 * symbol.  Covers lazy .plt, IBT's .plt.sec and .plt.got, on both
 * x86-64 (jmp [rip+d]) and i386 (jmp [ebx+d] in PIC, jmp [abs] otherwise).
 */
static void load_stubs(struct loader *l, csh cs)
{
	size_t i;

	for (i = 0; i < l->im.nsecs; i++) {
		const struct section *s = &l->im.secs[i];
		const uint8_t *code;
		uint64_t addr, prev_end = 0, prev_endbr = 0;
		size_t size;
		cs_insn *insn;

		if (!s->exec || !s->data || strncmp(s->name, ".plt", 4) != 0)
			continue;
		code = s->data;
		size = s->size;
		addr = s->addr;
		insn = cs_malloc(cs);
		while (size > 0) {
			uint64_t at = addr;
			cs_x86_op *op;
			struct import_ref ref;

			if (!cs_disasm_iter(cs, &code, &size, &addr, insn)) {
				/* Skip a byte of padding we cannot decode. */
				code++, size--, addr++;
				continue;
			}
			if (insn->id == X86_INS_ENDBR64 ||
			    insn->id == X86_INS_ENDBR32) {
				prev_endbr = at;
				prev_end = addr;
				continue;
			}
			op = &insn->detail->x86.operands[0];
			if (insn->id != X86_INS_JMP ||
			    insn->detail->x86.op_count != 1 ||
			    op->type != X86_OP_MEM || op->mem.index != X86_REG_INVALID)
				continue;
			if (op->mem.base == X86_REG_RIP)
				ref.addr = addr + op->mem.disp;
			else if (op->mem.base == X86_REG_EBX)
				ref.addr = (uint32_t)(l->im.got + op->mem.disp);
			else if (op->mem.base == X86_REG_INVALID)
				ref.addr = (uint32_t)op->mem.disp;
			else
				continue;
			ref.name = image_slot(&l->im, ref.addr);
			if (!ref.name)
				continue;
			ref.addr = prev_end == at ? prev_endbr : at;
			VEC_PUSH(l->im.stubs, l->im.nstubs, l->cap_stubs, ref);
		}
		cs_free(insn, 1);
	}
	qsort(l->im.stubs, l->im.nstubs, sizeof(*l->im.stubs), ref_cmp);
}

static int read_encoded(const uint8_t **p, const uint8_t *end, int enc,
			uint64_t datarel, int64_t *out)
{
	const uint8_t *q = *p;
	int64_t v;

	switch (enc & 0x0f) {
	case 0x03:	/* udata4 */
		if (end - q < 4)
			return 0;
		v = (uint32_t)(q[0] | q[1] << 8 | q[2] << 16 | (uint32_t)q[3] << 24);
		q += 4;
		break;
	case 0x0b:	/* sdata4 */
		if (end - q < 4)
			return 0;
		v = (int32_t)(q[0] | q[1] << 8 | q[2] << 16 | (uint32_t)q[3] << 24);
		q += 4;
		break;
	default:
		return 0;
	}
	if ((enc & 0x70) == 0x30)	/* datarel */
		v += datarel;
	else if ((enc & 0x70) != 0 && (enc & 0x70) != 0x10)
		return 0;
	*p = q;
	*out = v;
	return 1;
}

/*
 * Function starts: the binary search table of .eh_frame_hdr (every
 * function with unwind information, including gcc's .cold parts), plus
 * the FUNC symbols of .symtab and .dynsym where they exist.
 */
static void load_fstarts(struct loader *l)
{
	Elf_Scn *scn = NULL;
	size_t i;

	for (i = 0; i < l->im.nsecs; i++) {
		const struct section *s = &l->im.secs[i];
		const uint8_t *p, *end;
		int64_t v, count;

		if (strcmp(s->name, ".eh_frame_hdr") != 0 || !s->data ||
		    s->size < 4 || s->data[0] != 1)
			continue;
		p = s->data + 4;
		end = s->data + s->size;
		if (!read_encoded(&p, end, s->data[1], s->addr, &v) ||
		    !read_encoded(&p, end, s->data[2], s->addr, &count))
			continue;
		while (count-- > 0) {
			int64_t pc, fde;

			if (!read_encoded(&p, end, s->data[3], s->addr, &pc) ||
			    !read_encoded(&p, end, s->data[3], s->addr, &fde))
				break;
			VEC_PUSH(l->im.fstarts, l->im.nfstarts, l->cap_fstarts,
				 (uint64_t)pc);
		}
	}
	while ((scn = elf_nextscn(l->elf, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t n;

		if (!gelf_getshdr(scn, &sh) ||
		    (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) ||
		    !sh.sh_entsize || !(d = elf_getdata(scn, NULL)))
			continue;
		n = sh.sh_size / sh.sh_entsize;
		for (i = 0; i < n; i++) {
			GElf_Sym sym;

			if (gelf_getsym(d, i, &sym) &&
			    GELF_ST_TYPE(sym.st_info) == STT_FUNC &&
			    sym.st_shndx != SHN_UNDEF && sym.st_value)
				VEC_PUSH(l->im.fstarts, l->im.nfstarts,
					 l->cap_fstarts, sym.st_value);
		}
	}
	qsort(l->im.fstarts, l->im.nfstarts, sizeof(uint64_t), u64_cmp);
}

/* ---- 3. One file -------------------------------------------------------- */

void audit_init(void)
{
	elf_version(EV_CURRENT);
}

static void machine_name(int machine, int class, char *buf, size_t len)
{
	static const struct { int em; const char *name; } names[] = {
		{ EM_AARCH64, "aarch64" }, { EM_ARM, "arm" },
		{ EM_RISCV, "riscv" }, { EM_PPC64, "ppc64" }, { EM_PPC, "ppc" },
		{ EM_S390, "s390" }, { EM_MIPS, "mips" }, { EM_SPARCV9, "sparc64" },
		{ EM_IA_64, "ia64" }, { EM_LOONGARCH, "loongarch" },
		{ EM_BPF, "bpf" }, { EM_AVR, "avr" }, { EM_68K, "m68k" },
		{ EM_SH, "sh" }, { EM_ALPHA, "alpha" }, { EM_PARISC, "hppa" },
	};
	size_t i;

	if (machine == EM_X86_64 && class == ELFCLASS32) {
		snprintf(buf, len, "x32");
		return;
	}
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].em == machine) {
			snprintf(buf, len, "%s", names[i].name);
			return;
		}
	snprintf(buf, len, "machine %d", machine);
}

/* Undefined .dynsym symbols that name a family. */
static uint32_t dynsym_imports(Elf *elf)
{
	Elf_Scn *scn = NULL;
	uint32_t imports = 0;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t i, n;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNSYM ||
		    !sh.sh_entsize || !(d = elf_getdata(scn, NULL)))
			continue;
		n = sh.sh_size / sh.sh_entsize;
		for (i = 1; i < n; i++) {
			GElf_Sym sym;
			const char *name;
			int f;

			if (!gelf_getsym(d, i, &sym) || sym.st_shndx != SHN_UNDEF)
				continue;
			name = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (name && (f = family_index(name)) >= 0)
				imports |= 1u << f;
		}
	}
	return imports;
}

static int has_interp(Elf *elf)
{
	size_t i, n;

	if (elf_getphdrnum(elf, &n) != 0)
		return 0;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, i, &ph) && ph.p_type == PT_INTERP)
			return 1;
	}
	return 0;
}

static void got_base(struct loader *l)
{
	size_t i;

	for (i = 0; i < l->im.nsecs; i++)
		if (strcmp(l->im.secs[i].name, ".got.plt") == 0) {
			l->im.got = l->im.secs[i].addr;
			return;
		}
	for (i = 0; i < l->im.nsecs; i++)
		if (strcmp(l->im.secs[i].name, ".got") == 0)
			l->im.got = l->im.secs[i].addr;
}

static enum verdict verdict_of(const struct file_result *r)
{
	int constant = 0, unknown = 0;
	size_t i;

	if (!r->imports)
		return VERDICT_NONE;
	for (i = 0; i < r->nseeds; i++) {
		constant |= r->seeds[i].class == CLASS_CONSTANT;
		unknown |= r->seeds[i].class == CLASS_UNKNOWN;
	}
	if (constant)
		return VERDICT_NEEDS_DETERMINISTIC;
	if (unknown)
		return VERDICT_REVIEW;
	return r->nseeds ? VERDICT_STRONG_OK : VERDICT_UNSEEDED;
}

static uint32_t seeders_mask(void)
{
	uint32_t m = 0;
	int i;

	for (i = 0; i < nfamilies; i++)
		if (families[i].role != ROLE_DRAW)
			m |= 1u << i;
	return m;
}

/* The seeds of an image that imports a seeder. */
static void analyse(Elf *elf, int bits, struct file_result *r)
{
	struct loader l = { .elf = elf };
	csh cs;

	if (elf_getshdrstrndx(elf, &l.shstrndx) != 0) {
		snprintf(r->error, sizeof(r->error), "no section headers");
		return;
	}
	l.im.bits = bits;
	if (cs_open(CS_ARCH_X86, bits == 64 ? CS_MODE_64 : CS_MODE_32, &cs) !=
	    CS_ERR_OK) {
		snprintf(r->error, sizeof(r->error), "capstone: cannot open");
		return;
	}
	cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
	load_sections(&l);
	got_base(&l);
	load_slots(&l);
	load_stubs(&l, cs);
	load_fstarts(&l);
	cs_close(&cs);
	if (seed_scan(&l.im, r) < 0)
		snprintf(r->error, sizeof(r->error), "disassembly failed");
	free(l.im.secs);
	free(l.im.slots);
	free(l.im.stubs);
	free(l.im.fstarts);
}

void audit_file(const char *path, struct file_result *r)
{
	unsigned char h[64];
	int fd, class, type, machine, le;
	Elf *elf;
	GElf_Ehdr eh;

	memset(r, 0, sizeof(*r));
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		snprintf(r->error, sizeof(r->error), "%s", strerror(errno));
		return;
	}
	if (pread(fd, h, sizeof(h), 0) != (ssize_t)sizeof(h) ||
	    memcmp(h, ELFMAG, SELFMAG) != 0)
		goto out;
	class = h[EI_CLASS];
	le = h[EI_DATA] == ELFDATA2LSB;
	type = le ? h[16] | h[17] << 8 : h[17] | h[16] << 8;
	machine = le ? h[18] | h[19] << 8 : h[19] | h[18] << 8;
	if (type != ET_EXEC && type != ET_DYN)
		goto out;
	r->is_elf = 1;
	if (!((machine == EM_X86_64 && class == ELFCLASS64) ||
	      (machine == EM_386 && class == ELFCLASS32))) {
		machine_name(machine, class, r->machine, sizeof(r->machine));
		r->verdict = VERDICT_NOT_ANALYSED;
		goto out;
	}
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
		snprintf(r->error, sizeof(r->error), "libelf: %s",
			 elf_errmsg(-1));
		r->is_elf = 0;
		if (elf)
			elf_end(elf);
		goto out;
	}
	r->is_executable = type == ET_EXEC || has_interp(elf);
	r->imports = dynsym_imports(elf);
	if (r->imports & seeders_mask())
		analyse(elf, class == ELFCLASS64 ? 64 : 32, r);
	r->verdict = verdict_of(r);
	elf_end(elf);
out:
	close(fd);
}
