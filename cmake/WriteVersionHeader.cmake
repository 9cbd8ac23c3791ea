# Run at every build (cmake -P) by the gpubench_version_header target: writes the git revision of the source
# tree into the version header, with "-dirty" when tracked files differ from that commit. configure_file leaves
# the header untouched when nothing changed, so nothing is recompiled then.
# Inputs: SOURCE_DIR, INPUT, OUTPUT, PROJECT_VERSION.
execute_process(COMMAND git rev-parse --short=12 HEAD
                WORKING_DIRECTORY "${SOURCE_DIR}"
                OUTPUT_VARIABLE GPUBENCH_GIT_REVISION OUTPUT_STRIP_TRAILING_WHITESPACE
                ERROR_QUIET RESULT_VARIABLE git_result)
if(NOT git_result EQUAL 0 OR GPUBENCH_GIT_REVISION STREQUAL "")
  set(GPUBENCH_GIT_REVISION "unknown")
else()
  execute_process(COMMAND git status --porcelain --untracked-files=no
                  WORKING_DIRECTORY "${SOURCE_DIR}"
                  OUTPUT_VARIABLE changes OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(NOT changes STREQUAL "")
    string(APPEND GPUBENCH_GIT_REVISION "-dirty")
  endif()
endif()
configure_file("${INPUT}" "${OUTPUT}" @ONLY)
