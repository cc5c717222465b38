cmd_/work/wt-shim/kmod/modules.order := {   echo /work/wt-shim/kmod/arc4dev.ko; :; } > /work/wt-shim/kmod/modules.order
