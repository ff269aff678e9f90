/* #line needs a line number. */
#line forty
BEGIN
{
}
