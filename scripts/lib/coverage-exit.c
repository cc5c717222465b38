// SPDX-License-Identifier: GPL-2.0
/*
 * coverage-exit.so: preloaded by scripts/coverage into every test, so that
 * a process that ends with _exit() or abort() still writes the gcov
 * counters of the shim it ran.
 *
 * gcov writes a library's counters from the library's destructors, which
 * exit() runs and _exit() and abort() do not.  The kselftest harness ends
 * every test's child with _exit(), and the shim's last resort is abort():
 * without this, the counters of nearly every test would be lost.  A
 * library's gcov runtime is linked into it with hidden symbols, so nothing
 * outside can call it; its destructors, though, are in its DT_FINI_ARRAY.
 * This _exit() and abort() run those of every loaded object that holds
 * the shim's counters: libarc4.so, and the programs and plugins built in
 * the instrumented tree (scripts/coverage puts this library beside it, in
 * the tree's parent), which link libarc4.a's objects; then they end the
 * process as the real ones do.  Not for production: only scripts/coverage
 * builds and preloads it.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <limits.h>
#include <link.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

typedef void (*fini_fn)(void);

/* Whether the object at PATH ("" for the program) was built in the tree. */
static int in_tree(const char *path)
{
	static char tree[PATH_MAX + 8];
	char real[PATH_MAX], *slash;
	Dl_info me;

	if (!tree[0]) {
		if (!dladdr((void *)in_tree, &me) || !me.dli_fname ||
		    !realpath(me.dli_fname, tree) || !(slash = strrchr(tree, '/')))
			return 0;
		strcpy(slash, "/tree/");
	}
	if (!*path)
		path = "/proc/self/exe";
	return realpath(path, real) && !strncmp(real, tree, strlen(tree));
}

static int run_fini(struct dl_phdr_info *info, size_t size, void *data)
{
	const ElfW(Dyn) *dyn = NULL;
	uintptr_t array = 0;
	size_t bytes = 0;
	int i;

	(void)size;
	(void)data;
	if (!info->dlpi_name || (!strstr(info->dlpi_name, "libarc4.so") &&
				 !in_tree(info->dlpi_name)))
		return 0;
	for (i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
			dyn = (const ElfW(Dyn) *)(info->dlpi_addr +
						  info->dlpi_phdr[i].p_vaddr);
	for (; dyn && dyn->d_tag != DT_NULL; dyn++) {
		if (dyn->d_tag == DT_FINI_ARRAY)
			array = info->dlpi_addr + dyn->d_un.d_ptr;
		else if (dyn->d_tag == DT_FINI_ARRAYSZ)
			bytes = dyn->d_un.d_val;
	}
	/* In reverse, as the dynamic linker runs them. */
	for (i = bytes / sizeof(fini_fn) - 1; array && i >= 0; i--)
		((fini_fn *)array)[i]();
	return 0;
}

static void flush_counters(void)
{
	static int done;

	if (__atomic_exchange_n(&done, 1, __ATOMIC_RELAXED))
		return;
	dl_iterate_phdr(run_fini, NULL);
}

void _exit(int status)
{
	flush_counters();
	for (;;)
		syscall(SYS_exit_group, status);
}

void abort(void)
{
	void (*real)(void) = (void (*)(void))dlsym(RTLD_NEXT, "abort");

	flush_counters();
	if (real)
		real();
	raise(SIGABRT);
	for (;;)
		syscall(SYS_exit_group, 127);
}
