/* Thread-wide part of the kernel floating-point environment (fpenv.h). */
#include "core/fpenv.h"

void tfe_fpenv_set_thread(void) {
  tfe_fpenv_saved ignored;
  /* Entering without leaving leaves the thread in the kernel state. */
  tfe_fpenv_enter(&ignored);
}
