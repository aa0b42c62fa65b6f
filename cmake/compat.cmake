# tfe's libtensorflow_framework.so.2 (csrc_compat/): a small library with
# TensorFlow's framework SONAME that depends only on libtfe. libtfe loads it
# from its own directory before it dlopen()s a plugin, so plugins built
# against TensorFlow (NEEDED libtensorflow_framework.so.2) resolve their
# TF_* symbols to libtfe. See docs/FILESYSTEMS.md.
add_library(tf_framework_compat SHARED
  ${PROJECT_SOURCE_DIR}/csrc_compat/tf_framework_compat.c)
target_include_directories(tf_framework_compat PRIVATE
  ${PROJECT_SOURCE_DIR}/include)
target_compile_options(tf_framework_compat PRIVATE ${TFE_WARNINGS})
target_compile_definitions(tf_framework_compat PRIVATE TF_COMPILE_LIBRARY)
target_link_libraries(tf_framework_compat PRIVATE tfe)
set(TFE_COMPAT_LDS ${PROJECT_SOURCE_DIR}/csrc_compat/tf_framework_compat.lds)
target_link_options(tf_framework_compat PRIVATE
  "LINKER:--version-script=${TFE_COMPAT_LDS}"
  "LINKER:-soname,libtensorflow_framework.so.2"
  "LINKER:--no-as-needed")
set_target_properties(tf_framework_compat PROPERTIES
  OUTPUT_NAME tensorflow_framework
  # The file name is exactly the SONAME: no libtensorflow_framework.so
  # development symlink, nothing else can link against it by accident.
  SUFFIX ".so.2"
  C_VISIBILITY_PRESET hidden
  LINK_DEPENDS ${TFE_COMPAT_LDS}
  # Found next to libtfe at run time, in the build tree and once installed.
  BUILD_RPATH "$ORIGIN"
  INSTALL_RPATH "$ORIGIN")
install(TARGETS tf_framework_compat
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})

if(TFE_BUILD_TESTS AND TARGET test_fs_compat)
  # The compatibility test builds plugins and a stub framework library with
  # the same compiler at run time, and needs this library built first.
  add_dependencies(test_fs_compat tf_framework_compat)
  target_compile_definitions(test_fs_compat PRIVATE
    TFE_TEST_CC="${CMAKE_C_COMPILER}"
    TFE_TEST_CXX="${CMAKE_CXX_COMPILER}"
    TFE_TEST_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    TFE_TEST_COMPAT_LIB="$<TARGET_FILE:tf_framework_compat>")
endif()
if(TFE_BUILD_TESTS)
  # Every C test may load plugins: make sure the library is there.
  file(GLOB TFE_FS_C_TESTS CONFIGURE_DEPENDS
    ${PROJECT_SOURCE_DIR}/tests/c/test_fs_*.c)
  foreach(src ${TFE_FS_C_TESTS})
    get_filename_component(exe ${src} NAME_WE)
    if(TARGET ${exe})
      add_dependencies(${exe} tf_framework_compat)
    endif()
  endforeach()
endif()
