/* A typedef name cannot be declared again. */
typedef int count_t;
typedef int count_t;

BEGIN
{
}
