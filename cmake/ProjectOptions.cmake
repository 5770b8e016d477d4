# Warnings and shared options as an INTERFACE target every project target links.
add_library(attnlab_options INTERFACE)
add_library(AttnLab::options ALIAS attnlab_options)
target_compile_options(attnlab_options INTERFACE
  $<$<CXX_COMPILER_ID:GNU,Clang>:-Wall -Wextra -Wno-unused-parameter>)
# Qt and LibTorch may meet in a TU (tests, app): keep Qt's keyword macros out.
target_compile_definitions(attnlab_options INTERFACE QT_NO_KEYWORDS)
