# pjrtx_add_test(<name> COMMAND <cmd>... [TIMEOUT <s>] [LABELS <l>...]
#                [ENVIRONMENT VAR=value...] [ISA_VARIANTS [ISA_ANCHORS]])
# Every test gets a TIMEOUT (60 s unless given), so nothing can hang CI.
# ISA_VARIANTS adds <name>.isa_avx2 and <name>.isa_baseline: the same
# command on the CPU engine's narrower vector paths, whatever this machine
# has (pjrtx_isa_environment), labelled `isa` beside LABELS; ISA_ANCHORS
# limits a benchmark's anchors alike (pjrtx_isa_environment's ANCHORS).
function(pjrtx_add_test name)
  cmake_parse_arguments(ARG "ISA_VARIANTS;ISA_ANCHORS" "TIMEOUT"
                        "COMMAND;LABELS;ENVIRONMENT" ${ARGN})
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
  if(ARG_ISA_VARIANTS)
    foreach(isa IN ITEMS avx2 baseline)
      set(anchors)
      if(ARG_ISA_ANCHORS)
        set(anchors ANCHORS)
      endif()
      pjrtx_isa_environment(${isa} isa_environment ${anchors})
      pjrtx_add_isa_variant(${name}.isa_${isa} COMMAND ${ARG_COMMAND}
        TIMEOUT ${ARG_TIMEOUT} LABELS ${ARG_LABELS}
        ENVIRONMENT ${ARG_ENVIRONMENT} ${isa_environment})
    endforeach()
  endif()
endfunction()

# pjrtx_add_isa_variant(<name> COMMAND <cmd>... TIMEOUT <s> [LABELS <l>...]
#                       ENVIRONMENT VAR=value...)
# One test on a narrower vector path (ENVIRONMENT holds the limits), run
# through tests/isa_variant.sh: skipped where the engine's widest path is
# that one anyway (the plain test runs it), labelled `isa` beside LABELS.
function(pjrtx_add_isa_variant name)
  cmake_parse_arguments(ARG "" "TIMEOUT" "COMMAND;LABELS;ENVIRONMENT" ${ARGN})
  # add_test resolves a target named first in COMMAND; here it is an
  # argument of the script, so resolve it by hand.
  list(GET ARG_COMMAND 0 program)
  if(TARGET ${program})
    list(REMOVE_AT ARG_COMMAND 0)
    list(INSERT ARG_COMMAND 0 $<TARGET_FILE:${program}>)
  endif()
  add_test(NAME ${name}
    COMMAND ${PROJECT_SOURCE_DIR}/tests/isa_variant.sh $<TARGET_FILE:pjrtx>
            $<TARGET_FILE:pjrt_tpuemu> ${ARG_COMMAND})
  set_tests_properties(${name} PROPERTIES
    TIMEOUT ${ARG_TIMEOUT} LABELS "${ARG_LABELS};isa"
    ENVIRONMENT "${ARG_ENVIRONMENT}" SKIP_RETURN_CODE 77)
endfunction()

# pjrtx_isa_environment(<avx2|baseline> <out variable> [ANCHORS])
# The environment that runs the CPU engine on one vector ISA: its own loops
# (PJRTX_CPU_MAX_ISA) and its matrix library, oneDNN (DNNL_MAX_CPU_ISA;
# SSE4.1 is oneDNN's lowest). ANCHORS adds the benchmarks' anchors on the
# same ISA, so that ratios compare like with like: OpenBLAS
# (OPENBLAS_CORETYPE) and XLA:CPU (--xla_cpu_max_isa). XLA:CPU cannot run
# f16 below AVX (its conversions need F16C), so AVX is its baseline: an
# anchor a little faster than the subject's, never slower.
function(pjrtx_isa_environment isa out)
  cmake_parse_arguments(ARG "ANCHORS" "" "" ${ARGN})
  if(isa STREQUAL "avx2")
    set(engine PJRTX_CPU_MAX_ISA=avx2 DNNL_MAX_CPU_ISA=AVX2)
    set(anchors OPENBLAS_CORETYPE=Haswell XLA_FLAGS=--xla_cpu_max_isa=AVX2)
  elseif(isa STREQUAL "baseline")
    set(engine PJRTX_CPU_MAX_ISA=baseline DNNL_MAX_CPU_ISA=SSE41)
    set(anchors OPENBLAS_CORETYPE=Nehalem XLA_FLAGS=--xla_cpu_max_isa=AVX)
  else()
    message(FATAL_ERROR "pjrtx_isa_environment: '${isa}'; expected avx2 or baseline")
  endif()
  if(ARG_ANCHORS)
    list(APPEND engine ${anchors})
  endif()
  set(${out} "${engine}" PARENT_SCOPE)
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
