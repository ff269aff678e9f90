/*
 * The branches of ?: may give texts of different sizes (a literal, a string variable, a
 * kernel char array): whichever branch is taken, the result is its text.
 */
#pragma D option quiet

BEGIN
{
	this->text = "a string variable";
	this->pick = 1;
	printf("%s|", this->pick ? "lit" : this->text);
	printf("%s|", !this->pick ? "lit" : this->text);
	printf("%s|", this->pick ? "dsched" : stringof(curthread->comm));
	printf("%s\n", this->pick ? stringof(curthread->comm) : "a much longer literal than comm");
	exit(0);
}
