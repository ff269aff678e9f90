# The D printf/printa format parser and argument checker: no dependencies, shared by the
# front end (semantic checks) and the runtime output engine (rendering).
add_library(dsched_printf_spec STATIC ${CMAKE_CURRENT_LIST_DIR}/printf_spec.cc)
target_include_directories(dsched_printf_spec PUBLIC ${PROJECT_SOURCE_DIR})
