BEGIN { x = strtok(NULL, ""); y = strtok(x + 1, x); print(y); print(*curthread); print(`init_task.pid); trace(y == NULL); exit(0); }
