cmd_/work/wt-shim/modules.order := {   cat /work/wt-shim/kmod/modules.order; :; } > /work/wt-shim/modules.order
