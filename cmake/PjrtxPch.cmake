# Precompiled headers: one for the project's libraries and plugins, one
# for every GoogleTest executable.
#
# A source file spends a second or more (tests: 2-3 s) of its compile time
# parsing Abseil and the standard library (and GoogleTest, GoogleMock)
# before its own first line; compiling those headers once and reusing the
# result saves that in every file (minutes of a two-core build). Only
# third-party and standard headers go in: a change to the project's own
# headers must not rebuild everything.
#
#   pjrtx_precompile_library_headers(<dir>...)
# applies to the static, shared and module libraries defined in <dir> and
# below;
#   pjrtx_precompile_test_headers(<dir>...)
# to the executables defined in <dir> and below that link GoogleTest.
# Call each after those directories were added, from the directory whose
# compile options the targets share: the header is built by a target of
# that directory, so that it is compiled exactly like the targets reusing
# it (GCC ignores a header built with other flags, and -Winvalid-pch with
# -Werror turns that into a build error).

set(PJRTX_LIBRARY_PCH_HEADERS
  <algorithm> <array> <atomic> <chrono> <condition_variable> <cstddef>
  <cstdint> <cstring> <deque> <functional> <map> <memory> <mutex>
  <optional> <set> <string> <string_view> <thread> <utility> <vector>
  <absl/status/status.h> <absl/status/statusor.h> <absl/strings/str_cat.h>
  <absl/strings/str_join.h> <absl/strings/string_view.h>
  <absl/types/span.h>)

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

# Makes the targets of `kind` (library: static, shared and module
# libraries with C++ sources; test: executables linking GoogleTest) in the
# given directories and below reuse `pch`'s precompiled header, and says
# how many do under `label`.
function(_pjrtx_reuse_pch pch kind label)
  set(count 0)
  foreach(dir IN LISTS ARGN)
    _pjrtx_targets_below(${dir} targets)
    foreach(target IN LISTS targets)
      get_target_property(type ${target} TYPE)
      if(kind STREQUAL "library")
        get_target_property(sources ${target} SOURCES)
        set(reuse FALSE)
        if(type MATCHES "^(STATIC|SHARED|MODULE)_LIBRARY$" AND
           sources MATCHES "\\.cc(;|$)")
          set(reuse TRUE)
        endif()
      else()
        get_target_property(libraries ${target} LINK_LIBRARIES)
        set(reuse FALSE)
        if(type STREQUAL "EXECUTABLE" AND libraries MATCHES "GTest::")
          set(reuse TRUE)
        endif()
      endif()
      if(reuse)
        target_precompile_headers(${target} REUSE_FROM ${pch})
        math(EXPR count "${count} + 1")
      endif()
    endforeach()
  endforeach()
  message(STATUS "${label}: ${count} share a precompiled header")
endfunction()

function(pjrtx_precompile_library_headers)
  # Built by a static library: position independent like every library
  # and plugin here (CMAKE_POSITION_INDEPENDENT_CODE).
  file(CONFIGURE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/library_pch.cc
       CONTENT "// Only builds the precompiled header.\n")
  add_library(pjrtx_library_pch STATIC
              ${CMAKE_CURRENT_BINARY_DIR}/library_pch.cc)
  target_link_libraries(pjrtx_library_pch PRIVATE
    absl::status absl::statusor absl::strings absl::span pjrtx_warnings)
  target_precompile_headers(pjrtx_library_pch PRIVATE
                            ${PJRTX_LIBRARY_PCH_HEADERS})
  _pjrtx_reuse_pch(pjrtx_library_pch library "Libraries" ${ARGN})
endfunction()

function(pjrtx_precompile_test_headers)
  file(CONFIGURE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/test_pch_main.cc
       CONTENT "int main() { return 0; }\n")
  add_executable(pjrtx_test_pch ${CMAKE_CURRENT_BINARY_DIR}/test_pch_main.cc)
  target_link_libraries(pjrtx_test_pch PRIVATE
    GTest::gmock absl::status absl::statusor absl::strings absl::span
    pjrtx_warnings)
  target_precompile_headers(pjrtx_test_pch PRIVATE ${PJRTX_TEST_PCH_HEADERS})
  _pjrtx_reuse_pch(pjrtx_test_pch test "Test executables" ${ARGN})
endfunction()
