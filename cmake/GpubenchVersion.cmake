# The git revision goes into every results document so a figure can be traced to the code that made it. It is
# read at every build, not only when CMake configures: a build after a new commit must not name the old one.
set(GPUBENCH_VERSION_HEADER "${CMAKE_BINARY_DIR}/generated/gpubench/version.hpp")
add_custom_target(gpubench_version_header
  COMMAND "${CMAKE_COMMAND}" "-DSOURCE_DIR=${CMAKE_SOURCE_DIR}" "-DINPUT=${CMAKE_SOURCE_DIR}/harness/version.hpp.in"
          "-DOUTPUT=${GPUBENCH_VERSION_HEADER}" "-DPROJECT_VERSION=${PROJECT_VERSION}"
          -P "${CMAKE_SOURCE_DIR}/cmake/WriteVersionHeader.cmake"
  BYPRODUCTS "${GPUBENCH_VERSION_HEADER}"
  COMMENT "Reading the git revision"
  VERBATIM)
add_library(gpubench_version INTERFACE)
target_include_directories(gpubench_version INTERFACE "${CMAKE_BINARY_DIR}/generated")
add_dependencies(gpubench_version gpubench_version_header)
