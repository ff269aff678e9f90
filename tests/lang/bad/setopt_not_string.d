/* setopt() takes the option name as a string. */
BEGIN
{
	setopt(1);
}
