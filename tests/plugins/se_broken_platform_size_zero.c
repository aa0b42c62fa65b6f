/* Broken device plugin for the StreamExecutor loader tests: leaves SP_Platform.struct_size at 0. */
#define SE_BREAK_INIT(params) (params)->platform->struct_size = 0;
#include "se_broken_common.h"
