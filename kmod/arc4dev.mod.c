#include <linux/module.h>
#define INCLUDE_VERMAGIC
#include <linux/build-salt.h>
#include <linux/elfnote-lto.h>
#include <linux/export-internal.h>
#include <linux/vermagic.h>
#include <linux/compiler.h>

BUILD_SALT;
BUILD_LTO_INFO;

MODULE_INFO(vermagic, VERMAGIC_STRING);
MODULE_INFO(name, KBUILD_MODNAME);

__visible struct module __this_module
__section(".gnu.linkonce.this_module") = {
	.name = KBUILD_MODNAME,
	.init = init_module,
#ifdef CONFIG_MODULE_UNLOAD
	.exit = cleanup_module,
#endif
	.arch = MODULE_ARCH_INIT,
};

#ifdef CONFIG_RETPOLINE
MODULE_INFO(retpoline, "Y");
#endif


static const struct modversion_info ____versions[]
__used __section("__versions") = {
	{ 0x88db9f48, "__check_object_size" },
	{ 0x47978cc, "misc_deregister" },
	{ 0x13c49cc2, "_copy_from_user" },
	{ 0x6a14d3af, "unregister_random_vmfork_notifier" },
	{ 0x3b6c41ea, "kstrtouint" },
	{ 0x220b49ab, "chacha_crypt_arch" },
	{ 0x37730835, "param_get_ulong" },
	{ 0x76cc5b2c, "vfs_setpos" },
	{ 0xbdfb6dbb, "__fentry__" },
	{ 0x92997ed8, "_printk" },
	{ 0x4d06a092, "param_get_uint" },
	{ 0xa19b956, "__stack_chk_fail" },
	{ 0x11e30762, "chacha_block_generic" },
	{ 0x3ef022ec, "compat_ptr_ioctl" },
	{ 0x4dfa8d4b, "mutex_lock" },
	{ 0xd0760fc0, "kfree_sensitive" },
	{ 0xcf1bc739, "no_seek_end_llseek" },
	{ 0x449ad0a7, "memcmp" },
	{ 0xcefb0c9f, "__mutex_init" },
	{ 0x68fb37ae, "current_task" },
	{ 0x6eb04f46, "register_random_vmfork_notifier" },
	{ 0x5c3c7387, "kstrtoull" },
	{ 0x844c8938, "misc_register" },
	{ 0x5b8239ca, "__x86_return_thunk" },
	{ 0x6b10bee1, "_copy_to_user" },
	{ 0x15ba50a6, "jiffies" },
	{ 0x3213f038, "mutex_unlock" },
	{ 0x2cf56265, "__dynamic_pr_debug" },
	{ 0xc07351b3, "__SCT__cond_resched" },
	{ 0x41ed3709, "get_random_bytes" },
	{ 0x606e9d01, "kmalloc_trace" },
	{ 0x742578a5, "wait_for_random_bytes" },
	{ 0x7a7caba8, "kmalloc_caches" },
	{ 0x3a4f9d28, "rng_is_initialized" },
	{ 0x9060323f, "module_layout" },
};

MODULE_INFO(depends, "chacha-x86_64");

