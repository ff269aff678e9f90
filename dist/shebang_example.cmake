# Writes an example script as an executable one: the source's text with a `#!` line in front
# when it has none, so that `./qtime.d` runs it. The sources under examples/ stay as they are.
# Usage: cmake -DSOURCE=examples/qtime.d -DDEST=build/dist/examples/qtime.d -P shebang_example.cmake
file(READ "${SOURCE}" text)
string(SUBSTRING "${text}" 0 2 head)
if(NOT head STREQUAL "#!")
  set(text "#!/usr/bin/env -S dsched -s\n${text}")
endif()
get_filename_component(dir "${DEST}" DIRECTORY)
get_filename_component(name "${DEST}" NAME)
file(WRITE "${dir}/${name}.tmp" "${text}")
file(CHMOD "${dir}/${name}.tmp" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
     GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
file(RENAME "${dir}/${name}.tmp" "${DEST}")
