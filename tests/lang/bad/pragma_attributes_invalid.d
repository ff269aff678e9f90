#pragma D attributes Solid/Stable/Common x
int x;
