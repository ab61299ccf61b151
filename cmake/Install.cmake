# `make install` (PREFIX, default /usr/local): the tools, the runtime
# libraries, the C API with its headers, the DML library (lib/Frontend/DML)
# and the Python package, each finding the others relative to its own
# location and libMLIR in the LLVM installation it was built against.
set(AMLS_INSTALL_LIBDIR lib)
foreach(tool amls-opt amls-run amls-translate)
  set_target_properties(${tool} PROPERTIES
    INSTALL_RPATH "$ORIGIN/../${AMLS_INSTALL_LIBDIR};${LLVM_LIBRARY_DIR}")
  install(TARGETS ${tool} RUNTIME DESTINATION bin)
endforeach()

set(AMLS_INSTALLED_LIBRARIES amls_runtime AMLSCAPI)
if(TARGET amls_cuda_runtime)
  list(APPEND AMLS_INSTALLED_LIBRARIES amls_cuda_runtime)
endif()
# The MPI backends libamls_runtime loads beside itself (distributed runs).
foreach(mpi openmpi mpich)
  if(TARGET amls_mpi_${mpi})
    list(APPEND AMLS_INSTALLED_LIBRARIES amls_mpi_${mpi})
  endif()
endforeach()
foreach(library ${AMLS_INSTALLED_LIBRARIES})
  set_target_properties(${library} PROPERTIES
    INSTALL_RPATH "$ORIGIN;${LLVM_LIBRARY_DIR}")
  install(TARGETS ${library} LIBRARY DESTINATION ${AMLS_INSTALL_LIBDIR})
endforeach()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/amls-c
        DESTINATION include)

# Debian's layout for Python packages: PREFIX/lib/python3/dist-packages.
if(TARGET _amls)
  set(AMLS_PYTHON_INSTALL_DIR ${AMLS_INSTALL_LIBDIR}/python3/dist-packages/amls)
  set_target_properties(_amls PROPERTIES
    INSTALL_RPATH "$ORIGIN/../../..;${LLVM_LIBRARY_DIR}")
  install(TARGETS _amls LIBRARY DESTINATION ${AMLS_PYTHON_INSTALL_DIR})
  list(TRANSFORM AMLS_PYTHON_SOURCES PREPEND ${PROJECT_SOURCE_DIR}/python/
       OUTPUT_VARIABLE AMLS_PYTHON_SOURCE_PATHS)
  install(FILES ${AMLS_PYTHON_SOURCE_PATHS}
                ${CMAKE_BINARY_DIR}/python/amls/_version.py
          DESTINATION ${AMLS_PYTHON_INSTALL_DIR})
endif()
