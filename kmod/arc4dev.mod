/work/wt-shim/kmod/main.o
/work/wt-shim/kmod/dev.o
/work/wt-shim/kmod/stream.o
