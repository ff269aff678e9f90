#pragma D attributes Stable/Stable
BEGIN { }
