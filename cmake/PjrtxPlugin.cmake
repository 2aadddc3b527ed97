# pjrtx_add_plugin(<target> SOURCES <src>... [LIBRARIES <lib>...])
#
# Builds a device plugin: a shared library whose only exported symbols are
# GetPjrtxApi (the pjrtx ABI) and GetPjrtApi (OpenXLA's PJRT C API, from
# pjrtx::pjrt, which every plugin links), both defined by
# PJRTX_DEFINE_PLUGIN. Hidden visibility keeps the runtime's C++ symbols
# private, and a version script hides whatever a static dependency exported
# anyway (symbols leaking from one plugin clash with the host process,
# tillahoffmann/jax-mps PR #199). Plugins are marked nodelete: their
# callback threads live for the life of the process, so unloading them
# could never be safe.
#
# Used in-tree and, through pjrtxConfig.cmake, by plugins built against an
# installed pjrtx.
set(PJRTX_PLUGIN_VERSION_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/pjrtx_plugin.map")

function(pjrtx_add_plugin target)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBRARIES" ${ARGN})
  add_library(${target} MODULE ${ARG_SOURCES})
  target_link_libraries(${target} PRIVATE ${ARG_LIBRARIES} pjrtx::pjrt)
  set_target_properties(${target} PROPERTIES
    PREFIX "lib"
    CXX_VISIBILITY_PRESET hidden
    C_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    LINK_DEPENDS "${PJRTX_PLUGIN_VERSION_SCRIPT}")
  target_link_options(${target} PRIVATE
    "LINKER:--version-script=${PJRTX_PLUGIN_VERSION_SCRIPT}"
    "LINKER:-z,nodelete"
    "LINKER:--no-undefined")
endfunction()
