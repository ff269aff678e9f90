BEGIN
{
  system("echo1 иииииииииииииии%ииииииhi");
}
