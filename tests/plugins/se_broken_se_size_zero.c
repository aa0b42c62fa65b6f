/* Broken device plugin for the StreamExecutor loader tests: leaves SP_StreamExecutor.struct_size at 0. */
#define SE_BREAK_SE(se) (se)->struct_size = 0;
#include "se_broken_common.h"
