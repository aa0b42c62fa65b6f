/* CPU kernels: string processing ops (split, hash buckets, joins, unicode). */
#include "kernels/cpu/cpu_kernels.h"

void tfe_register_cpu_text_kernels(void) {}
