#pragma D option nspec
BEGIN
{
}
