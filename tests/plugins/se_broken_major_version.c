/* Broken device plugin for the StreamExecutor loader tests: claims StreamExecutor C API version 1.0.0. */
#define SE_BREAK_INIT(params) (params)->major_version = 1;
#include "se_broken_common.h"
