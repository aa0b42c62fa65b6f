/* Broken device plugin for the StreamExecutor loader tests: zeroes SE_PlatformRegistrationParams.struct_size. */
#define SE_BREAK_INIT(params) (params)->struct_size = 0;
#include "se_broken_common.h"
