cmd_/work/wt-shim/kmod/arc4dev.o := ld -m elf_x86_64 -z noexecstack --no-warn-rwx-segments   -r -o /work/wt-shim/kmod/arc4dev.o @/work/wt-shim/kmod/arc4dev.mod 
