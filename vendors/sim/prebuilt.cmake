# sim from OPWEAVE_SIM_PREBUILT (vendors/sim/CMakeLists.txt says when and why): its libraries
# copied into this build's lib/, next to this build's libopweave.so that they load, as targets
# of the same names for the tests that link them; and a compile check of every sim source with
# this build's compiler, so that a source another compiler rejects still fails this build.
foreach(name opweave_vendor_sim opweave_vendor_sim_fp32)
  set(from ${OPWEAVE_SIM_PREBUILT}/lib${name}.so)
  set(to ${CMAKE_LIBRARY_OUTPUT_DIRECTORY}/lib${name}.so)
  if(NOT EXISTS ${from})
    message(FATAL_ERROR "OPWEAVE_SIM_PREBUILT: ${from} does not exist (build that folder first)")
  endif()
  add_custom_command(OUTPUT ${to} COMMAND ${CMAKE_COMMAND} -E copy ${from} ${to}
    DEPENDS ${from} COMMENT "Copying the prebuilt lib${name}.so")
  add_custom_target(${name}_copy ALL DEPENDS ${to})
  add_library(${name} SHARED IMPORTED GLOBAL)
  set_target_properties(${name} PROPERTIES IMPORTED_LOCATION ${to}
    INTERFACE_INCLUDE_DIRECTORIES ${CMAKE_CURRENT_SOURCE_DIR}/seam
    INTERFACE_LINK_LIBRARIES opweave_diopi_headers)
  add_dependencies(${name} ${name}_copy)
endforeach()

# -fsyntax-only: parsing and template instantiation, no code generation (0.4-0.5 s a file
# against 4-8 s at -O3, measured on sim's add and clamp); a stamp per file, and a depfile so
# that a header edit checks its includers again (its paths absolute, as CMP0116 NEW reads them).
if(POLICY CMP0116)
  cmake_policy(SET CMP0116 NEW)
endif()
get_target_property(header_dirs opweave_diopi_headers INTERFACE_INCLUDE_DIRECTORIES)
set(flags -std=c++17 -fsyntax-only -I${CMAKE_CURRENT_SOURCE_DIR}/seam)
foreach(dir ${header_dirs})
  list(APPEND flags -I${dir})
endforeach()
if(OPWEAVE_OPENBLAS_PRIVATE)
  list(APPEND flags -DSIM_PRIVATE_OPENBLAS=1)
endif()
set(stamps)
foreach(source ${OPWEAVE_SIM_SOURCES})
  file(RELATIVE_PATH rel ${CMAKE_CURRENT_SOURCE_DIR} ${source})
  set(stamp ${CMAKE_CURRENT_BINARY_DIR}/syntax/${rel}.ok)
  get_filename_component(stamp_dir ${stamp} DIRECTORY)
  file(MAKE_DIRECTORY ${stamp_dir})
  add_custom_command(OUTPUT ${stamp}
    COMMAND ${CMAKE_CXX_COMPILER} ${flags} -MD -MF ${stamp}.d -MT ${stamp} ${source}
    COMMAND ${CMAKE_COMMAND} -E touch ${stamp}
    DEPENDS ${source} DEPFILE ${stamp}.d COMMENT "Checking vendors/sim/${rel} compiles" VERBATIM)
  list(APPEND stamps ${stamp})
endforeach()
add_custom_target(opweave_sim_compile_check ALL DEPENDS ${stamps})
