/* A struct only declared has no members to read yet. */
struct request_info;

BEGIN
{
	trace(((struct request_info *)arg0)->size);
}
