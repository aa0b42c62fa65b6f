/* CPU kernels: v1 control flow (Switch, Merge, Enter, Exit, NextIteration, LoopCond, ...). */
#include "kernels/cpu/cpu_kernels.h"

void tfe_register_cpu_control_flow_kernels(void) {}
