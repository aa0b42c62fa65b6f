/* Test plugin: on load it makes and fills a TF_Status through the TF_*
 * functions it imports. It is deliberately not linked against libtfe, so
 * those calls only work if the loading runtime exported its symbols to it.
 * It keeps the status alive, so the loader sees the runtime's live-status
 * count go up by exactly one. */
#include <string.h>

#include "tensorflow/c/tf_status.h"

/* `used` keeps the compiler from dropping the only reference to the status
 * (which leak checkers would then report). */
__attribute__((used)) static TF_Status* g_kept;

__attribute__((constructor)) static void probe_on_load(void) {
  TF_Status* scratch = TF_NewStatus();
  TF_Status* s = TF_NewStatus();
  TF_SetStatus(scratch, TF_INTERNAL, "scratch");
  TF_DeleteStatus(scratch);
  TF_SetStatus(s, TF_ABORTED, "set inside the probe plugin");
  if (TF_GetCode(s) == TF_ABORTED &&
      strcmp(TF_Message(s), "set inside the probe plugin") == 0) {
    g_kept = s;
  } else {
    TF_DeleteStatus(s);
  }
}
