#pragma D binding "1.0" lastseen
BEGIN { self->lastseen = timestamp; }
