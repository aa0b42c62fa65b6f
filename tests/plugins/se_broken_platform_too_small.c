/* Broken device plugin for the StreamExecutor loader tests: declares an SP_Platform that ends before `type`. */
#define SE_BREAK_INIT(params) (params)->platform->struct_size = TF_OFFSET_OF_END(SP_Platform, name);
#include "se_broken_common.h"
