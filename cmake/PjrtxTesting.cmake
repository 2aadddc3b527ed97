# pjrtx_add_test(<name> COMMAND <cmd>... [TIMEOUT <s>] [LABELS <l>...]
#                [ENVIRONMENT VAR=value...])
# Every test gets a TIMEOUT (60 s unless given), so nothing can hang CI.
function(pjrtx_add_test name)
  cmake_parse_arguments(ARG "" "TIMEOUT" "COMMAND;LABELS;ENVIRONMENT" ${ARGN})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 60)
  endif()
  add_test(NAME ${name} COMMAND ${ARG_COMMAND})
  set_tests_properties(${name} PROPERTIES TIMEOUT ${ARG_TIMEOUT})
  if(ARG_LABELS)
    set_tests_properties(${name} PROPERTIES LABELS "${ARG_LABELS}")
  endif()
  if(ARG_ENVIRONMENT)
    set_tests_properties(${name} PROPERTIES ENVIRONMENT "${ARG_ENVIRONMENT}")
  endif()
endfunction()

# pjrtx_add_conformance_test(<name> <plugin target> [OPTIONS k=v...]
#                            [ENVIRONMENT VAR=value...])
function(pjrtx_add_conformance_test name plugin)
  cmake_parse_arguments(ARG "" "" "OPTIONS;ENVIRONMENT" ${ARGN})
  set(args --plugin=$<TARGET_FILE:${plugin}>)
  foreach(option IN LISTS ARG_OPTIONS)
    list(APPEND args --option ${option})
  endforeach()
  pjrtx_add_test(conformance.${name} COMMAND pjrtx_conformance ${args}
                 TIMEOUT 180 LABELS conformance
                 ENVIRONMENT ${ARG_ENVIRONMENT})
endfunction()
