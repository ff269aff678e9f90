/* A description in a script file needs a predicate or actions. */
BEGIN
