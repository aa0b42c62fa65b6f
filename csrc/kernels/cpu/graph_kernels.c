/* CPU kernels: graph-only ops (Placeholder and friends). */
#include <stdio.h>

#include "core/status_internal.h"
#include "graph/graph_internal.h"
#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/kutil.h"

void tfe_graph_placeholder_unfed(TF_Status* s, const char* node_name,
                                 TF_DataType dtype, const tfe_shape* shape) {
  char buf[512];
  size_t len = 0;
  int i;
  const char* dt = tfe_dtype_short_name(dtype);
  buf[0] = '\0';
  if (shape != NULL && shape->num_dims > 0) {
    len += (size_t)snprintf(buf, sizeof buf, " and shape [");
    for (i = 0; i < shape->num_dims && len < sizeof buf; i++) {
      if (shape->dims[i] < 0) {
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s?",
                                i ? "," : "");
      } else {
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%lld",
                                i ? "," : "", (long long)shape->dims[i]);
      }
    }
    if (len < sizeof buf) snprintf(buf + len, sizeof buf - len, "]");
  }
  tfe_status_setf(s, TF_INVALID_ARGUMENT,
                  "You must feed a value for placeholder tensor '%s' with "
                  "dtype %s%s",
                  node_name != NULL ? node_name : "Placeholder",
                  dt != NULL ? dt : "invalid", buf);
}

/* Runs only when nothing fed the placeholder (sessions feed it without
 * running the kernel). In eager mode there is no node name and the op's
 * name stands in, as TF shows it. */
static void placeholder_compute(tfe_kernel_context* k) {
  TF_DataType dt = TF_FLOAT;
  const tfe_shape* shape = NULL;
  tfe_attrs_get_type(k->attrs, "dtype", &dt, NULL);
  tfe_attrs_get_shape(k->attrs, "shape", &shape, NULL);
  tfe_graph_placeholder_unfed(
      k->status, k->node_name != NULL ? k->node_name : k->op_def->name, dt,
      shape);
}

void tfe_register_cpu_graph_kernels(void) {
  tfe_kutil_register("Placeholder", placeholder_compute, NULL, NULL, 0, NULL,
                     NULL, 0);
  tfe_kutil_register("PlaceholderV2", placeholder_compute, NULL, NULL, 0, NULL,
                     NULL, 0);
}
