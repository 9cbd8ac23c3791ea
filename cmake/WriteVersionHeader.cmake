# Run at every build (cmake -P) by the gpubench_version_header target: writes the git revision of the source
# tree into the version header, with "-dirty" when tracked files differ from that commit. configure_file leaves
# the header untouched when nothing changed, so nothing is recompiled then.
# Inputs: SOURCE_DIR, INPUT, OUTPUT, PROJECT_VERSION. $GPUBENCH_GIT_REVISION, when set, names the revision of a
# tree git cannot read (an archive, a copy without .git) and is written as it is.
#
# Every results document records this revision (run.git_revision), and `check --prometheus` labels its figures
# with it; "unknown" there means git could not read the tree when gpubench was built. Git refuses a repository
# owned by another user than the one building ("dubious ownership", git 2.35.2 on: a container or CI job building a
# checkout mounted from the host), so the tree's own git is trusted here (safe.directory) for these two read-only
# commands, and when git still cannot tell, the build says why.
if(DEFINED ENV{GPUBENCH_GIT_REVISION} AND NOT "$ENV{GPUBENCH_GIT_REVISION}" STREQUAL "")
  set(GPUBENCH_GIT_REVISION "$ENV{GPUBENCH_GIT_REVISION}")
else()
  execute_process(COMMAND git -c safe.directory=* rev-parse --short=12 HEAD
                  WORKING_DIRECTORY "${SOURCE_DIR}"
                  OUTPUT_VARIABLE GPUBENCH_GIT_REVISION OUTPUT_STRIP_TRAILING_WHITESPACE
                  ERROR_VARIABLE git_error ERROR_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE git_result)
  if(NOT git_result EQUAL 0 OR GPUBENCH_GIT_REVISION STREQUAL "")
    set(GPUBENCH_GIT_REVISION "unknown")
    message(STATUS "gpubench: the git revision of ${SOURCE_DIR} is unknown (git: ${git_result} ${git_error}); "
                   "results documents will say \"unknown\": set GPUBENCH_GIT_REVISION=REVISION to name it")
  else()
    execute_process(COMMAND git -c safe.directory=* status --porcelain --untracked-files=no
                    WORKING_DIRECTORY "${SOURCE_DIR}"
                    OUTPUT_VARIABLE changes OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(NOT changes STREQUAL "")
      string(APPEND GPUBENCH_GIT_REVISION "-dirty")
    endif()
  endif()
endif()
configure_file("${INPUT}" "${OUTPUT}" @ONLY)
