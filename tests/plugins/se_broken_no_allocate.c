/* Broken device plugin for the StreamExecutor loader tests: sets no allocate. */
#define SE_BREAK_SE(se) (se)->allocate = NULL;
#include "se_broken_common.h"
