/* Broken device plugin for the StreamExecutor loader tests: sets no create_device. */
#define SE_BREAK_INIT(params) (params)->platform_fns->create_device = NULL;
#include "se_broken_common.h"
