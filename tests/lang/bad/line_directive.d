/* A #line directive renumbers the lines after it, and may rename the file, without cpp. */
#line 100 "renamed.d"
BEGIN
{
	trace(undefined_variable);
}
