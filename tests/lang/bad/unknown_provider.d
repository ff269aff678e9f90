BEGIN
{
}

nosuch:::entry
{
}
