BEGIN
{
	s = "hello world";
	t = execname;
	trace(index(s, t, -3));
	trace(rindex(t, s, 99));
	trace(strstr(s, "o w"));
	trace(index(strjoin(s, t), ""));
}

BEGIN
{
	p = "/a/./b//../..";
	trace(cleanpath(p));
	trace(cleanpath(strjoin(p, "/../x")));
}
