struct p { int a; char n[4]; };
BEGIN { this->p = (struct p *)alloca(sizeof (struct p)); this->p->a++; this->p->n[1] = 'x'; *(int *)this->p += 2; }
BEGIN { this->b = (char *)alloca(4); copyinto(arg0, 4, this->b); this->b[9] = 1; }
