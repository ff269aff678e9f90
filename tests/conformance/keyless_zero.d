/*
 * An aggregation without keys is there once it has been updated, whatever its value: a sum of 0,
 * sums that cancel, and one cleared (clear() keeps keys, and a key-less one's key is the empty
 * tuple) all print 0. trunc() removes it.
 */
#pragma D option quiet
BEGIN {
  @zero = sum(0);
  @cancel = sum(1);
  @cancel = sum(-1);
  @cleared = sum(5);
  clear(@cleared);
  @gone = sum(5);
  trunc(@gone);
  @never[1] = sum(1);
  trunc(@never);
  exit(0);
}
