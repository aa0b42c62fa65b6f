/* Broken device plugin for the StreamExecutor loader tests: claims a SE_PlatformRegistrationParams without the destroy functions. */
#define SE_BREAK_INIT(params) (params)->struct_size = TF_OFFSET_OF_END(SE_PlatformRegistrationParams, platform_fns);
#include "se_broken_common.h"
