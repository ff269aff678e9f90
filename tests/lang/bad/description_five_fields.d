/* A probe description has at most four fields. */
syscall:vmlinux:read:entry:extra
{
}
