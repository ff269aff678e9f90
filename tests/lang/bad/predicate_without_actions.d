/* A predicate needs actions. */
BEGIN
/1/
