# Generated headers compile as C11 and C++17 with warnings as errors; vendor stubs compile.
add_executable(diopi_headers_c11 ${CMAKE_CURRENT_LIST_DIR}/diopi_headers_c11.c)
set_target_properties(diopi_headers_c11 PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
target_compile_options(diopi_headers_c11 PRIVATE -Wall -Wextra -Wpedantic -Werror)
target_link_libraries(diopi_headers_c11 PRIVATE opweave_diopi_headers)
# Only compiled: the prototypes are what is under test, not a link against a vendor.
target_link_options(diopi_headers_c11 PRIVATE -Wl,--unresolved-symbols=ignore-all)
add_test(NAME diopi_headers_c11 COMMAND diopi_headers_c11)

add_executable(diopi_headers_cxx17 ${CMAKE_CURRENT_LIST_DIR}/diopi_headers_cxx17.cpp)
target_compile_options(diopi_headers_cxx17 PRIVATE -Wall -Wextra -Wpedantic -Werror)
target_link_libraries(diopi_headers_cxx17 PRIVATE opweave_diopi_headers)
add_test(NAME diopi_headers_cxx17 COMMAND diopi_headers_cxx17)

# Only compiled (nothing runs them): the other flavours check it, the sanitizer one need not.
if(NOT OPWEAVE_SANITIZE)
  file(GLOB OPWEAVE_VENDOR_STUBS CONFIGURE_DEPENDS ${OPWEAVE_GENERATED_DIR}/vendor_stubs/*.cpp)
  add_library(opweave_vendor_stubs_compile OBJECT ${OPWEAVE_VENDOR_STUBS})
  target_compile_options(opweave_vendor_stubs_compile PRIVATE -Wall -Wextra -Werror)
  target_link_libraries(opweave_vendor_stubs_compile PRIVATE opweave_diopi_headers)
endif()
