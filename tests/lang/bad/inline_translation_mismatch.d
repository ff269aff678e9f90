inline psinfo_t *info = xlate<lwpsinfo_t *>(curthread);
