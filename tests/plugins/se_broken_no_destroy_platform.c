/* Broken device plugin for the StreamExecutor loader tests: sets no destroy_platform. */
#define SE_BREAK_INIT(params) (params)->destroy_platform = NULL;
#include "se_broken_common.h"
