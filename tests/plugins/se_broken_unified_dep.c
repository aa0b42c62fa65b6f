/* Broken device plugin for the StreamExecutor loader tests: promises unified memory without its functions. */
#define SE_BREAK_INIT(params) (params)->platform->supports_unified_memory = 1;
#define SE_BREAK_SE(se) (se)->unified_memory_deallocate = NULL;
#include "se_broken_common.h"
