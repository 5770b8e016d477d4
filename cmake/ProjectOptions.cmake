# Warnings and shared options as an INTERFACE target every project target links.
add_library(attnlab_options INTERFACE)
add_library(AttnLab::options ALIAS attnlab_options)
# The code is clean of these; CI builds with ATTNLAB_WARNINGS_AS_ERRORS=ON so it stays so.
# (-Wshadow is GCC's and Clang's; third-party headers come in as system headers and are exempt.)
option(ATTNLAB_WARNINGS_AS_ERRORS "Treat compiler warnings as errors (CI turns this on)" OFF)
target_compile_options(attnlab_options INTERFACE
  $<$<CXX_COMPILER_ID:GNU,Clang>:-Wall -Wextra -Wshadow -Wno-unused-parameter>
  $<$<AND:$<BOOL:${ATTNLAB_WARNINGS_AS_ERRORS}>,$<CXX_COMPILER_ID:GNU,Clang>>:-Werror>)
# In a unity batch a class defined in one file may hold a type from that file's anonymous namespace;
# GCC warns because the class is no longer in the main file, which is harmless here.
if(ATTNLAB_UNITY_BUILD)
  target_compile_options(attnlab_options INTERFACE $<$<CXX_COMPILER_ID:GNU>:-Wno-subobject-linkage>)
endif()
# Qt and LibTorch may meet in a TU (tests, app): keep Qt's keyword macros out.
target_compile_definitions(attnlab_options INTERFACE QT_NO_KEYWORDS)
