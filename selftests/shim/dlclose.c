// SPDX-License-Identifier: GPL-2.0
/*
 * dlopen() and dlclose() of libarc4.so, or of a plugin that has libarc4.a
 * inside it, while threads hold strong buffers.  Built without -larc4: a
 * program that links the shim would keep it loaded whatever dlclose()
 * does.
 */
#include <dlfcn.h>
#include <pthread.h>

#include "kselftest_harness.h"
#include "shim_test.h"

enum { THREADS = 4 };

struct drawer {
	uint32_t (*arc4random)(void);
	pthread_barrier_t *drawn, *closed;
	uint32_t value;
};

/* Draw until the thread has its buffer, wait for dlclose(), then exit. */
static void *drawer(void *arg)
{
	struct drawer *d = arg;

	for (int i = 0; i < SHIM_BUFFERED_AFTER; i++)
		d->value = d->arc4random();
	pthread_barrier_wait(d->drawn);
	pthread_barrier_wait(d->closed);
	return NULL;
}

/*
 * Threads draw, the library is closed under them, then they exit: their
 * buffers must be wiped and unmapped at exit, and nothing may jump into
 * unmapped code.  Twice, to reopen what was closed.
 */
TEST(dlclose_while_threads_hold_buffers_then_thread_exit_is_safe)
{
	for (int round = 0; round < 2; round++) {
		pthread_barrier_t drawn, closed;
		struct drawer d[THREADS];
		pthread_t t[THREADS];
		void *h = dlopen(libarc4_so(), RTLD_NOW | RTLD_LOCAL);

		ASSERT_NE(NULL, h) TH_LOG("%s", dlerror());
		pthread_barrier_init(&drawn, NULL, THREADS + 1);
		pthread_barrier_init(&closed, NULL, THREADS + 1);
		for (int i = 0; i < THREADS; i++) {
			d[i] = (struct drawer){ .drawn = &drawn,
						.closed = &closed };
			d[i].arc4random = (uint32_t (*)(void))dlsym(h, "arc4random");
			ASSERT_NE(NULL, d[i].arc4random);
			ASSERT_EQ(0, pthread_create(&t[i], NULL, drawer, &d[i]));
		}
		pthread_barrier_wait(&drawn);
		/* None where the libc's getrandom() serves every value. */
		EXPECT_EQ(shim_buffers() ? THREADS : 0, count_wipeonfork_maps());
		EXPECT_EQ(0, dlclose(h)) TH_LOG("%s", dlerror());
		pthread_barrier_wait(&closed);
		for (int i = 0; i < THREADS; i++)
			pthread_join(t[i], NULL);
		EXPECT_EQ(0, count_wipeonfork_maps())
			TH_LOG("buffers of exited threads still mapped");
		EXPECT_NE(d[0].value, d[1].value);
		pthread_barrier_destroy(&drawn);
		pthread_barrier_destroy(&closed);
	}
}

struct plugin_drawer {
	uint32_t (*draw)(int n);
	pthread_barrier_t *drawn, *closed;
};

static void *plugin_drawer(void *arg)
{
	struct plugin_drawer *d = arg;

	d->draw(100);
	pthread_barrier_wait(d->drawn);
	pthread_barrier_wait(d->closed);
	return NULL;
}

/*
 * The archive's thread key destructor runs at the thread's exit, after
 * the plugin was dlclose()d: it must still be there (a crash otherwise),
 * and wipe and unmap the thread's buffer.
 */
TEST(dlclose_of_a_plugin_with_libarc4_a_then_thread_exit_is_safe)
{
	pthread_barrier_t drawn, closed;
	struct plugin_drawer d = { .drawn = &drawn, .closed = &closed };
	char path[PATH_MAX];
	pthread_t t;
	void *h;

	snprintf(path, sizeof(path), "%s/libplugin.so", test_dir());
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	ASSERT_NE(NULL, h) TH_LOG("%s", dlerror());
	d.draw = (uint32_t (*)(int))dlsym(h, "plugin_draw");
	ASSERT_NE(NULL, d.draw);
	ASSERT_NE(NULL, dlsym(h, "plugin_ctor_buffers"));
	EXPECT_EQ(0, *(int *)dlsym(h, "plugin_ctor_buffers"))
		TH_LOG("a buffer made in the plugin's constructor, before its pin");
	pthread_barrier_init(&drawn, NULL, 2);
	pthread_barrier_init(&closed, NULL, 2);
	ASSERT_EQ(0, pthread_create(&t, NULL, plugin_drawer, &d));
	pthread_barrier_wait(&drawn);
	EXPECT_EQ(shim_buffers() ? 1 : 0, count_wipeonfork_maps())
		TH_LOG("the plugin's thread holds no buffer: nothing tested");
	EXPECT_EQ(0, dlclose(h)) TH_LOG("%s", dlerror());
	pthread_barrier_wait(&closed);
	pthread_join(t, NULL);
	EXPECT_EQ(0, count_wipeonfork_maps())
		TH_LOG("the exited thread's buffer is still mapped");
}

struct first_draws {
	uint32_t (*arc4random)(void);
	int go;		/* atomic: the thread polls it */
};

/* 50 ms into the dlopen() below, a thread's first buffered draws. */
static void *first_draws(void *arg)
{
	struct first_draws *f = arg;

	while (!__atomic_load_n(&f->go, __ATOMIC_ACQUIRE))
		usleep(1000);
	usleep(50 * 1000);
	for (int i = 0; i < SHIM_BUFFERED_AFTER; i++)
		(void)f->arc4random();
	return NULL;
}

/*
 * A library constructor draws while another thread makes its first
 * buffered draw: neither may wait for the other (the dynamic linker's
 * lock, held by the dlopen() that runs the constructor, against a
 * once-only set-up of the shim's).  alarm() ends a test that hangs.
 */
TEST(a_constructor_draws_while_a_thread_makes_its_first_buffered_draw)
{
	struct first_draws f = { 0 };
	char path[PATH_MAX];
	void *shim, *h;
	pthread_t t;

	shim = dlopen(libarc4_so(), RTLD_NOW | RTLD_LOCAL);
	ASSERT_NE(NULL, shim) TH_LOG("%s", dlerror());
	f.arc4random = (uint32_t (*)(void))dlsym(shim, "arc4random");
	ASSERT_NE(NULL, f.arc4random);
	setenv("ARC4_CTOR_LIB", libarc4_so(), 1);
	snprintf(path, sizeof(path), "%s/libctor.so", test_dir());
	ASSERT_EQ(0, pthread_create(&t, NULL, first_draws, &f));
	alarm(20);
	__atomic_store_n(&f.go, 1, __ATOMIC_RELEASE);
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	pthread_join(t, NULL);
	alarm(0);
	ASSERT_NE(NULL, h) TH_LOG("%s", dlerror());
	dlclose(h);
	dlclose(shim);
}

/*
 * A program that has changed its environment (environ is then setenv()'s
 * own copy) dlopen()s a library whose dependencies' constructors run one
 * that grows the environment (setenv() realloc()s the copy) before the
 * shim's: the environment glibc passes the shim's constructor has been
 * freed by then, and must not be read.  ARC4_LEGACY=1, set before the
 * dlopen(), still makes rand() glibc's.
 */
TEST(a_dlopen_after_setenv_reads_no_freed_environment)
{
	int (*shim_rand)(void), want[3];
	void (*shim_srand)(unsigned int);
	char path[PATH_MAX];
	void *h;

	srand(1);			/* glibc's: no shim loaded yet */
	for (int i = 0; i < 3; i++)
		want[i] = rand();
	ASSERT_EQ(0, setenv("ARC4_LEGACY", "1", 1));
	ASSERT_EQ(0, setenv("ARC4_CTOR_SETENV", "1", 1));
	snprintf(path, sizeof(path), "%s/libouter.so", test_dir());
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	ASSERT_NE(NULL, h) TH_LOG("%s", dlerror());
	ASSERT_NE(NULL, getenv("ARC4_CTOR_63")) TH_LOG("libctor.so did not run");
	shim_srand = (void (*)(unsigned int))dlsym(h, "srand");
	shim_rand = (int (*)(void))dlsym(h, "rand");
	ASSERT_TRUE(shim_srand && shim_rand);
	shim_srand(1);
	for (int i = 0; i < 3; i++)
		EXPECT_EQ(want[i], shim_rand());
}

TEST_HARNESS_MAIN
