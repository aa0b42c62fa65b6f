/* Test plugin for `python -m tfe_py doctor`: while it loads, it forks a
 * helper that sleeps for an hour holding the process's stdout, stderr and
 * every other descriptor (the doctor's report channel included), and
 * writes the helper's pid and its own to the file DOCTOR_FOOL_PIDFILE
 * names. Then the plugin loads normally (it is a clean op library with a
 * no-op TF_InitKernel), or, with DOCTOR_FOOL_HANG=1, hangs in its
 * constructor.
 * With DOCTOR_FOOL_SETSID=1 the helper leaves the process group. The
 * doctor must neither wait for the helper nor leave it running. */
#include "doctor_fool_common.h"

#include <signal.h>
#include <stdio.h>

__attribute__((constructor)) static void doctor_fool_fork_holder_init(void) {
  const char* pidfile = getenv("DOCTOR_FOOL_PIDFILE");
  const char* hang = getenv("DOCTOR_FOOL_HANG");
  const char* escape = getenv("DOCTOR_FOOL_SETSID");
  pid_t pid;
  fflush(stdout);
  fflush(stderr);
  pid = fork();
  if (pid == 0) {
    int i;
    if (escape != NULL && strcmp(escape, "1") == 0) setsid();
    fool_write(2, "doctor_fool_fork_holder: helper holds stdout and stderr\n");
    for (i = 0; i < 3600; i++) sleep(1);
    _exit(0);
  }
  if (pid > 0 && pidfile != NULL) {
    FILE* f = fopen(pidfile, "w");
    if (f != NULL) {
      fprintf(f, "%d %d\n", (int)pid, (int)getpid());
      fclose(f);
    }
  }
  if (hang != NULL && strcmp(hang, "1") == 0) {
    for (;;) pause();
  }
}

void TF_InitKernel(void) {}
