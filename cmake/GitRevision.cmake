# The git revision, read at configure time (best effort: a tarball has none).
find_package(Git QUIET)
set(ATTNLAB_GIT_REVISION "unknown")
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --short HEAD
                  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
                  OUTPUT_VARIABLE _rev OUTPUT_STRIP_TRAILING_WHITESPACE
                  RESULT_VARIABLE _res ERROR_QUIET)
  if(_res EQUAL 0 AND _rev)
    set(ATTNLAB_GIT_REVISION ${_rev})
  endif()
endif()
configure_file(${CMAKE_SOURCE_DIR}/core/Version.h.in ${CMAKE_BINARY_DIR}/generated/core/Version.h @ONLY)
