// SPDX-License-Identifier: GPL-2.0
/*
 * atfork: the shim registers its fork handlers once, at load (a
 * constructor): registered later, at a first lock, a signal handler that
 * forks during the registration would hang on glibc's atfork lock, and a
 * child of _Fork() made meanwhile on pthread_once().  This program
 * (linked with -larc4) defines __register_atfork(), which
 * pthread_atfork() calls, so it sees every registration the shim makes:
 * one before main, none more for strong or deterministic calls or in a
 * forked child; and the handlers do their work (a deterministic sequence
 * goes on in the child as in the parent).
 */
#include <dlfcn.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "arc4random.h"

static int shim_registrations;

int __register_atfork(void (*prepare)(void), void (*parent)(void),
		      void (*child)(void), void *dso);

int __register_atfork(void (*prepare)(void), void (*parent)(void),
		      void (*child)(void), void *dso)
{
	static int (*real)(void (*)(void), void (*)(void), void (*)(void),
			   void *);
	Dl_info info;

	if (prepare && dladdr((void *)prepare, &info) && info.dli_fname &&
	    strstr(info.dli_fname, "libarc4"))
		__atomic_add_fetch(&shim_registrations, 1, __ATOMIC_RELAXED);
	if (!real)
		real = (int (*)(void (*)(void), void (*)(void), void (*)(void),
				void *))dlsym(RTLD_NEXT, "__register_atfork");
	return real(prepare, parent, child, dso);
}

/* Each test runs in a child of the harness, which has drawn nothing. */
TEST(registered_once_at_load_and_not_again_by_strong_calls)
{
	ASSERT_EQ(1, shim_registrations) TH_LOG("not registered once at load");
	for (int i = 0; i < 3; i++)
		(void)arc4random();
	(void)rand();
	EXPECT_EQ(1, shim_registrations)
		TH_LOG("strong values registered fork handlers again");
}

TEST(deterministic_calls_and_a_child_register_none_more)
{
	int st, first, next;
	pid_t pid;

	ASSERT_EQ(1, shim_registrations) TH_LOG("not registered once at load");
	srand_deterministic(12345);
	first = rand();
	srand_deterministic(12345);
	(void)rand();
	next = rand();
	srand_deterministic(12345);
	(void)rand();
	EXPECT_EQ(1, shim_registrations) TH_LOG("registered again");
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		/* The handlers ran: the lock is the child's, the stream goes on. */
		int v = rand();

		srand_deterministic(12345);
		_exit((v == next && rand() == first &&
		       shim_registrations == 1) ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	ASSERT_TRUE(WIFEXITED(st));
	EXPECT_EQ(0, WEXITSTATUS(st))
		TH_LOG("the child's sequence or registrations were wrong");
	EXPECT_EQ(next, rand()) TH_LOG("the parent's sequence moved");
}

TEST_HARNESS_MAIN
