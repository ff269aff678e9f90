/* A variable needs a complete type. */
struct request_info;
struct request_info last;

BEGIN
{
}
