#pragma D option quiet

/*
 * psinfo_t's members for Solaris's ids Linux has no counterpart for (task, project, pool, zone,
 * contract) are 0, as DTrace for Linux gives them; pr_dmodel is PR_MODEL_LP64; pr_ttydev is the
 * controlling terminal's device, or PRNODEV without one.
 */
BEGIN
{
	printf("%d %d %d %d %d %d\n", curpsinfo->pr_taskid, curpsinfo->pr_projid, curpsinfo->pr_poolid,
	    curpsinfo->pr_zoneid, curpsinfo->pr_contract, curpsinfo->pr_nzomb);
	printf("%d %d %d\n", curpsinfo->pr_dmodel == PR_MODEL_LP64, PR_MODEL_ILP32, PRNODEV == (dev_t)-1);
	this->tty = curthread->signal->tty;
	printf("%d\n", this->tty == NULL ? curpsinfo->pr_ttydev == PRNODEV :
	    getmajor(curpsinfo->pr_ttydev) == this->tty->driver->major);
	exit(0);
}
