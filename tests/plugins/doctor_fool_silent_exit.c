/* Test plugin for `python -m tfe_py doctor`: while it loads, it writes 30
 * numbered lines and then its reason to stderr and ends the process with
 * status 0, so the doctor's child exits without a report. The doctor must
 * fail it and show the tail of what it wrote. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <unistd.h>

__attribute__((constructor)) static void doctor_fool_silent_exit_init(void) {
  int i;
  for (i = 1; i <= 30; i++) {
    fprintf(stderr, "doctor_fool_silent_exit: line %d of 30\n", i);
  }
  fprintf(stderr, "doctor_fool_silent_exit: no device found, giving up\n");
  fflush(stderr);
  _exit(0);
}

void TF_InitKernel(void) {}
