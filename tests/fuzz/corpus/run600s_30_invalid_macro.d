BEGIN*$
  ex