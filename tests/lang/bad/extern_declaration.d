extern int max_pfn;
