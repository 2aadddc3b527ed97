# One precompiled header for every GoogleTest executable under a directory.
#
# A test file spends about 2-3 s of its compile time parsing GoogleTest,
# GoogleMock, Abseil and the standard library before its own first line;
# compiling those headers once and reusing the result in every test
# executable saves that in each of them (minutes of a two-core build).
# Only third-party and standard headers go in: a change to the project's
# own headers must not rebuild every test.
#
#   pjrtx_precompile_test_headers(<dir>...)
# applies to the executables defined in <dir> and below that link
# GoogleTest. Call it after those directories were added.

set(PJRTX_TEST_PCH_HEADERS
  <algorithm> <atomic> <chrono> <cstdint> <cstdlib> <cstring> <filesystem>
  <fstream> <functional> <map> <memory> <mutex> <optional> <set> <sstream>
  <string> <string_view> <thread> <utility> <vector>
  <absl/status/status.h> <absl/status/statusor.h> <absl/strings/str_cat.h>
  <absl/strings/str_split.h> <absl/strings/string_view.h>
  <absl/types/span.h> <gmock/gmock.h> <gtest/gtest.h>)

function(_pjrtx_targets_below dir out)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    _pjrtx_targets_below(${sub} below)
    list(APPEND targets ${below})
  endforeach()
  set(${out} ${targets} PARENT_SCOPE)
endfunction()

function(pjrtx_precompile_test_headers)
  # The header is built by an executable of its own, so that it is
  # compiled exactly like the tests that reuse it (-fPIE, the directory's
  # options); GCC ignores a header built with other flags, and
  # -Winvalid-pch with -Werror turns that into a build error.
  file(CONFIGURE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/test_pch_main.cc
       CONTENT "int main() { return 0; }\n")
  add_executable(pjrtx_test_pch ${CMAKE_CURRENT_BINARY_DIR}/test_pch_main.cc)
  target_link_libraries(pjrtx_test_pch PRIVATE
    GTest::gmock absl::status absl::statusor absl::strings absl::span
    pjrtx_warnings)
  target_precompile_headers(pjrtx_test_pch PRIVATE ${PJRTX_TEST_PCH_HEADERS})
  set(count 0)
  foreach(dir IN LISTS ARGN)
    _pjrtx_targets_below(${dir} targets)
    foreach(target IN LISTS targets)
      get_target_property(type ${target} TYPE)
      get_target_property(libraries ${target} LINK_LIBRARIES)
      if(type STREQUAL "EXECUTABLE" AND libraries MATCHES "GTest::")
        target_precompile_headers(${target} REUSE_FROM pjrtx_test_pch)
        math(EXPR count "${count} + 1")
      endif()
    endforeach()
  endforeach()
  message(STATUS "Tests: ${count} executables share a precompiled header")
endfunction()
