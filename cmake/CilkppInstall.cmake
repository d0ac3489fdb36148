# Install layout (relative to the install prefix P):
#   P/bin/cilkpp             the driver
#   P/include/cilkpp/...     runtime headers that translated code includes
#   P/lib/libcilkpp_rt.a     the runtime library
# The driver finds the runtime relative to its own location at run time
# (tools/driver/Toolchain.cpp), so the tree can be moved after installation.
# The directory names come from GNUInstallDirs and are baked into the driver.
include(GNUInstallDirs)

install(TARGETS cilkpp_rt
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})

# runtime/include holds nothing but the public headers, so copy it whole.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

if(TARGET cilkpp)
  install(TARGETS cilkpp
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
