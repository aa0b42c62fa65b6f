/* The example op library (tfe_py/examples/example_op_library.c), built for
 * the tests as op_lib_test.so. */
#include "../../tfe_py/examples/example_op_library.c"
