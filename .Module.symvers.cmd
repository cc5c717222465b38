cmd_/work/wt-shim/Module.symvers :=  sed 's/ko$$/o/'  /work/wt-shim/modules.order | scripts/mod/modpost -m     -W -o /work/wt-shim/Module.symvers -e -i Module.symvers -T - 
