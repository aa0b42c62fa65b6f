/* TF_TensorFromProto (c_api.h): a serialized TensorProto into a TF_Tensor,
 * through the AttrValue codec of the eager runtime (a TensorProto is the
 * `tensor` field, number 8, of an AttrValue). */
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "core/tensor_internal.h"
#include "eager/eager_internal.h"
#include "core/pb.h"
#include "tensorflow/c/c_api.h"

void TF_TensorFromProto(const TF_Buffer* from, TF_Tensor* to,
                        TF_Status* status) {
  tfe_pbw w = {0};
  tfe_attr_value v;
  TF_Tensor* t;
  tfe_tensor_buffer* old;
  if (from == NULL || to == NULL || (from->length > 0 && from->data == NULL)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_TensorFromProto: NULL argument");
    return;
  }
  tfe_pbw_lenfield(&w, 8, from->data, from->length);
  if (w.oom) {
    tfe_pbw_free(&w);
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TF_TensorFromProto: out of memory");
    return;
  }
  memset(&v, 0, sizeof v);
  if (!tfe_attr_proto_decode(w.data, w.len, &v, status)) {
    tfe_pbw_free(&w);
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_TensorFromProto: Unparseable TensorProto");
    return;
  }
  tfe_pbw_free(&w);
  t = v.is_list || v.type != TF_ATTR_TENSOR ? NULL : v.v.tensor;
  if (t == NULL) {
    tfe_attr_value_clear(&v);
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_TensorFromProto: Unparseable TensorProto");
    return;
  }
  /* `to` takes over the decoded tensor's buffer and shape. */
  if (!tfe_tensor_set_dims(to, t->dims, t->num_dims)) {
    tfe_attr_value_clear(&v);
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TF_TensorFromProto: out of memory");
    return;
  }
  old = to->buf;
  to->dtype = t->dtype;
  to->buf = t->buf;
  tfe_buffer_ref(t->buf);
  tfe_buffer_unref(old);
  tfe_attr_value_clear(&v);
  tfe_status_ok(status);
}
