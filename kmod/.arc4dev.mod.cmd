cmd_/work/wt-shim/kmod/arc4dev.mod := printf '%s\n'   main.o dev.o stream.o | awk '!x[$$0]++ { print("/work/wt-shim/kmod/"$$0) }' > /work/wt-shim/kmod/arc4dev.mod
