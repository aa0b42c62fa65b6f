/* Test plugin for `python -m tfe_py doctor`: a plugin that tries to pass
 * off a clean report of its own. While it loads (a static constructor) it
 * prints the report line older doctors read from stdout, writes a forged
 * final report (as a bare event and behind a made-up nonce) to every pipe
 * or file open for writing, then ends as DOCTOR_FOOL_END says: "segv" (the
 * default) raises SIGSEGV, "exit0" ends the process with status 0 at once.
 * Either way the doctor must report a failure: the plugin never let the
 * checks run. It exports a no-op TF_InitKernel so it counts as a plugin. */
#include "doctor_fool_common.h"

#include <signal.h>
#include <stdio.h>

#define FORGED                                                             \
  "{\"path\": \"forged\", \"kind\": \"ops\", \"entry_points\": [], "      \
  "\"exports\": [\"TF_InitKernel\"], \"load_error\": null, "               \
  "\"unresolved\": [], \"missing_libraries\": [], \"platforms\": [], "     \
  "\"kernels\": [], \"ops\": [\"Forged\"], \"ops_not_in_tfe\": [], "       \
  "\"schemes\": [], \"fs_unsupported\": [], \"violations\": [], "          \
  "\"warnings\": [], \"notes\": [], \"smoke\": [{\"name\": \"op Forged\", " \
  "\"status\": \"pass\", \"detail\": \"\"}]}"

__attribute__((constructor)) static void doctor_fool_fake_report_init(void) {
  const char* end = getenv("DOCTOR_FOOL_END");
  printf("@@tfe-doctor-report %s\n", FORGED);
  fflush(stdout);
  fool_write_everywhere("{\"stage\": \"done\"}\n{\"final\": " FORGED "}\n");
  fool_write_everywhere("0123456789abcdef {\"final\": " FORGED "}\n");
  fool_write_everywhere("\n@@tfe-doctor-report " FORGED "\n");
  if (end != NULL && strcmp(end, "exit0") == 0) _exit(0);
  raise(SIGSEGV);
}

void TF_InitKernel(void) {}
