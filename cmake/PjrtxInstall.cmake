# Installs pjrtxConfig.cmake so that a plugin or a framework can build
# against an installed pjrtx with find_package(pjrtx).
include(CMakePackageConfigHelpers)
set(PJRTX_CMAKE_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/pjrtx)
install(EXPORT pjrtxTargets NAMESPACE pjrtx:: DESTINATION ${PJRTX_CMAKE_INSTALL_DIR})
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/pjrtxConfig.cmake.in
  ${PROJECT_BINARY_DIR}/pjrtxConfig.cmake
  INSTALL_DESTINATION ${PJRTX_CMAKE_INSTALL_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/pjrtxConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/pjrtxConfig.cmake
              ${PROJECT_BINARY_DIR}/pjrtxConfigVersion.cmake
              ${CMAKE_CURRENT_LIST_DIR}/PjrtxPlugin.cmake
              ${CMAKE_CURRENT_LIST_DIR}/pjrtx_plugin.map
        DESTINATION ${PJRTX_CMAKE_INSTALL_DIR})
