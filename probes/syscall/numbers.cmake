# Writes OUTPUT: the x86-64 system call numbers of <asm/unistd_64.h> (the kernel's system call ABI;
# a number, once given, never changes) as C++ initialisers {"read", 0}, one per line.
execute_process(COMMAND ${COMPILER} -E -dM -x c -include asm/unistd_64.h /dev/null
                OUTPUT_VARIABLE definitions RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "cannot read <asm/unistd_64.h> (package linux-libc-dev)")
endif()
string(REGEX MATCHALL "#define __NR_[a-z0-9_]+ [0-9]+" lines "${definitions}")
set(table "")
foreach(line ${lines})
  string(REGEX REPLACE "#define __NR_([a-z0-9_]+) ([0-9]+)" "{\"\\1\", \\2}," entry "${line}")
  string(APPEND table "${entry}\n")
endforeach()
file(WRITE ${OUTPUT}.new "${table}")
file(COPY_FILE ${OUTPUT}.new ${OUTPUT} ONLY_IF_DIFFERENT)
