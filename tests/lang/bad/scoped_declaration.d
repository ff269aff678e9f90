int vmlinux`max_pfn;
