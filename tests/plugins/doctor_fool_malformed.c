/* Test plugin for `python -m tfe_py doctor`: an op library that, while it
 * loads, writes malformed report lines (broken JSON, reports of the wrong
 * shape, a line cut short) to stdout and to every pipe or file open for
 * writing, then loads normally. Its real fault: a CPU kernel for an op
 * nobody defines (a contract violation). The doctor must not trip over the
 * junk and must judge the plugin on its real report. */
#include "doctor_fool_common.h"

#include <stdio.h>

#include "tensorflow/c/kernels.h"
#include "tensorflow/c/tf_status.h"

static void fool_compute(void* kernel, TF_OpKernelContext* ctx) {
  TF_Status* s = TF_NewStatus();
  (void)kernel;
  TF_SetStatus(s, TF_UNIMPLEMENTED, "doctor test kernel");
  TF_OpKernelContext_Failure(ctx, s);
  TF_DeleteStatus(s);
}

__attribute__((constructor)) static void doctor_fool_malformed_init(void) {
  TF_Status* s;
  TF_KernelBuilder* k;
  printf("@@tfe-doctor-report {\"path\": \"x\", \"violations\": [\n");
  fflush(stdout);
  fool_write_everywhere(
      "@@tfe-doctor-report {not json\n"
      "{\"final\": 5}\n"
      "{\"final\": {\"path\": 1, \"violations\": \"none\"}}\n"
      "{\"set\": [\"kind\"], \"value\": 1}\n"
      "{\"add\": \"violations\", \"value\": 7}\n"
      "{\"stage\": {}}\n"
      "[1, 2, 3]\n"
      "not json at all\n"
      "{\"final\": {\"violat");
  s = TF_NewStatus();
  k = TF_NewKernelBuilder("TfeDoctorFoolNoSuchOp", "CPU", NULL, fool_compute,
                          NULL);
  TF_RegisterKernelBuilder("DoctorFoolNoSuchOpCpu", k, s);
  TF_DeleteStatus(s);
}
