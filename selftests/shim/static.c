// SPDX-License-Identifier: GPL-2.0
/*
 * The shim linked into a static executable (libarc4.a, -static): an
 * executable needs no pin against dlclose(), so its threads keep strong
 * buffers wherever a dynamic one does.
 */
#include "arc4random.h"
#include "kselftest_harness.h"
#include "shim_test.h"

TEST(a_static_executable_keeps_a_buffer)
{
	for (int i = 0; i < 2000; i++)
		(void)arc4random();
	EXPECT_EQ(shim_buffers() ? 1 : 0, count_wipeonfork_maps())
		TH_LOG("buffers: as a dynamic executable's");
}

TEST_HARNESS_MAIN
