BEGIN
{
  x = rw_iswriter(&curthread->mm->mmap_lock);
}
