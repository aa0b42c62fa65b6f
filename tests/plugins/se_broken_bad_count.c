/* Broken device plugin for the StreamExecutor loader tests: reports -1 devices. */
#define SE_BREAK_COUNT(count) (count) = -1;
#include "se_broken_common.h"
