#pragma D option quiet

/*
 * The macro variables name dsched's own process, which BEGIN runs in: each agrees with what the
 * probe context reports. $projid and $taskid are Solaris's, 0 here as psinfo_t's members are.
 */
BEGIN
{
	printf("%d %d %d %d %d\n", $pid == pid, $ppid == ppid, $uid == uid, $gid == gid,
	    $euid == curpsinfo->pr_euid);
	printf("%d %d %d %d %d\n", $egid == curpsinfo->pr_egid, $sid == curpsinfo->pr_sid,
	    $pgid == curpsinfo->pr_pgid, $projid, $taskid);
	exit(0);
}
