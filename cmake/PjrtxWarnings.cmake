# Warnings are errors in the project's own code.
add_library(pjrtx_warnings INTERFACE)
target_compile_options(pjrtx_warnings INTERFACE
  -Wall -Wextra -Werror -Wno-unused-parameter
  $<$<COMPILE_LANGUAGE:CXX>:-Wnon-virtual-dtor>)
