float f;
BEGIN { trace(f); }
