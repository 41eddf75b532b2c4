# sim from OPWEAVE_SIM_PREBUILT (vendors/sim/CMakeLists.txt says when and why): its libraries
# copied into this build's lib/, next to this build's libopweave.so that they load, as targets
# of the same names for the tests that link them. Nothing of sim is compiled here: CI compiles
# sim's sources with this lane's compiler in its sanitizer flavour (.ci/run).
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
