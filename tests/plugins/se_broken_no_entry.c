/* Broken device plugin for the StreamExecutor loader tests: a shared
 * library that exports no SE_InitPlugin at all. */
#include "tensorflow/c/c_api_macros.h"

TF_CAPI_EXPORT int se_broken_no_entry_marker(void);
int se_broken_no_entry_marker(void) { return 1; }
