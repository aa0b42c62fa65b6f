/* Broken device plugin for the StreamExecutor loader tests: declares an SP_StreamExecutor that ends before host_callback. */
#define SE_BREAK_SE(se) (se)->struct_size = TF_OFFSET_OF_END(SP_StreamExecutor, synchronize_all_activity);
#include "se_broken_common.h"
