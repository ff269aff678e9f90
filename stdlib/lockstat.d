/*
 * lockstat.d: the constants of the lockstat provider's reader-writer probes (args[2] of rw-block
 * and rw-spin), with DTrace's values.
 */
inline int RW_WRITER = 0;
inline int RW_READER = 1;
