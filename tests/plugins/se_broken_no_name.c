/* Broken device plugin for the StreamExecutor loader tests: sets no platform name. */
#define SE_BREAK_INIT(params) (params)->platform->name = NULL;
#include "se_broken_common.h"
