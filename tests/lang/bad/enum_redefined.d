/* An enum is defined once. */
enum color { RED };
enum color { GREEN };

BEGIN
{
}
