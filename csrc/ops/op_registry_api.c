/* TFE_ListOpNames and TFE_GetOpDefSpecs: the registry as text for bindings
 * (include/tfe/op_registry.h). */
#include "tfe/op_registry.h"

#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "ops/op_registry.h"
#include "ops/ops_internal.h"

static void free_text(void* data, size_t length) {
  (void)length;
  tfe_free(data);
}

/* Gives `text` (tfe_malloc'd, NUL-terminated) to the buffer. */
static void buffer_adopt(TF_Buffer* out, char* text) {
  if (out->data_deallocator != NULL) {
    out->data_deallocator((void*)out->data, out->length);
  }
  out->data = text;
  out->length = strlen(text);
  out->data_deallocator = free_text;
}

void TFE_ListOpNames(TF_Buffer* out) {
  tfe_strbuf b;
  int i, n;
  char* text;
  if (out == NULL) return;
  tfe_sb_init(&b);
  n = tfe_op_count();
  for (i = 0; i < n; i++) {
    const tfe_op_def* d = tfe_op_at(i);
    if (d == NULL) break;
    tfe_sb_puts(&b, d->name);
    tfe_sb_putc(&b, '\n');
  }
  text = tfe_sb_take(&b);
  if (text != NULL) buffer_adopt(out, text);
}

void TFE_GetOpDefSpecs(const char* op_name, TF_Buffer* out,
                       TF_Status* status) {
  const tfe_op_def* d;
  char* text;
  if (op_name == NULL || out == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_GetOpDefSpecs: op_name and out must not be NULL");
    return;
  }
  d = tfe_op_lookup(op_name);
  if (d == NULL) {
    tfe_status_setf(status, TF_NOT_FOUND,
                    "Op type not registered '%s' in binary running on tfe.",
                    op_name);
    return;
  }
  text = tfe_op_def_to_specs(d);
  if (text == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "Out of memory while rendering the definition of %s",
                    op_name);
    return;
  }
  buffer_adopt(out, text);
  tfe_status_ok(status);
}
