# Writes OUTPUT: a C++ file defining `std::span<const unsigned char> NAME()` over the bytes of
# the file INPUT (a helper program the library starts from memory).
file(READ ${INPUT} hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
file(WRITE ${OUTPUT}
  "// Generated from ${INPUT}; do not edit.\n#include <span>\n\n"
  "namespace dsched::ctprof {\nnamespace {\nconst unsigned char kBytes[] = {${bytes}};\n}  // namespace\n\n"
  "std::span<const unsigned char> ${NAME}() { return kBytes; }\n\n}  // namespace dsched::ctprof\n")
