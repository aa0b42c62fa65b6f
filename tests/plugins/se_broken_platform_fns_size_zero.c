/* Broken device plugin for the StreamExecutor loader tests: leaves SP_PlatformFns.struct_size at 0. */
#define SE_BREAK_INIT(params) (params)->platform_fns->struct_size = 0;
#include "se_broken_common.h"
