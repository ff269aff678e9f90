#pragma D binding "1.0" timestamp
BEGIN { }
