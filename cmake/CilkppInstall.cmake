# Install layout (relative to the install prefix P):
#   P/bin/cilkpp                      the driver (the translator runs in it)
#   P/bin/cilkpp-sim, cilkpp-sim-plot the scheduling simulator (tools/sim)
#   P/bin/cilkpp-timeline             draws a CILKPP_TRACE event log (tools/timeline)
#   P/include/cilkpp/...              runtime headers that translated code includes
#   P/lib/libcilkpp_rt.a, .so         the runtime, static and shared
#   P/lib/libcilkpp_rt_tsan.a, .so    the runtime for -fsanitize=thread
#   P/lib/cmake/Cilkpp/               the CMake package: find_package(Cilkpp)
# The driver finds the runtime relative to its own location at run time
# (tools/driver/Toolchain.cpp), so the tree can be moved after installation.
# The directory names come from GNUInstallDirs and are baked into the driver.
include(CMakePackageConfigHelpers)

set(CILKPP_PACKAGE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/Cilkpp)
set(CILKPP_EXPORTED_TARGETS cilkpp_rt cilkpp_rt_shared cilkpp_rt_tsan cilkpp_rt_tsan_shared)
if(TARGET cilkpp)
  list(APPEND CILKPP_EXPORTED_TARGETS cilkpp)
endif()

install(TARGETS ${CILKPP_EXPORTED_TARGETS} EXPORT CilkppTargets
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})

# runtime/include holds nothing but the public headers, so copy it whole.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

install(EXPORT CilkppTargets NAMESPACE Cilkpp:: DESTINATION ${CILKPP_PACKAGE_DIR})
# Written where find_package does not look: at the build tree's top, with
# CMAKE_PREFIX_PATH pointing there, it was found without its targets and
# said the installation had no driver.
set(CILKPP_PACKAGE_STAGING ${PROJECT_BINARY_DIR}/package-files)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/CilkppConfig.cmake.in
  ${CILKPP_PACKAGE_STAGING}/CilkppConfig.cmake
  INSTALL_DESTINATION ${CILKPP_PACKAGE_DIR})
write_basic_package_version_file(${CILKPP_PACKAGE_STAGING}/CilkppConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${CILKPP_PACKAGE_STAGING}/CilkppConfig.cmake
  ${CILKPP_PACKAGE_STAGING}/CilkppConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/CilkppFunctions.cmake
  DESTINATION ${CILKPP_PACKAGE_DIR})
