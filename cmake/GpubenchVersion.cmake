# The git revision goes into every results document so a figure can be traced to the code that made it.
execute_process(COMMAND git rev-parse --short=12 HEAD
                WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}"
                OUTPUT_VARIABLE GPUBENCH_GIT_REVISION OUTPUT_STRIP_TRAILING_WHITESPACE
                ERROR_QUIET RESULT_VARIABLE git_result)
if(NOT git_result EQUAL 0 OR GPUBENCH_GIT_REVISION STREQUAL "")
  set(GPUBENCH_GIT_REVISION "unknown")
endif()
configure_file("${CMAKE_SOURCE_DIR}/harness/version.hpp.in" "${CMAKE_BINARY_DIR}/generated/gpubench/version.hpp" @ONLY)
add_library(gpubench_version INTERFACE)
target_include_directories(gpubench_version INTERFACE "${CMAKE_BINARY_DIR}/generated")
