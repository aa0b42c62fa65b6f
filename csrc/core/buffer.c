/* TF_Buffer. */
#include <string.h>

#include "core/alloc.h"
#include "tensorflow/c/tf_buffer.h"

static void free_buffer_bytes(void* data, size_t length) {
  (void)length;
  tfe_free(data);
}

TF_Buffer* TF_NewBuffer(void) {
  TF_Buffer* b = (TF_Buffer*)tfe_calloc(1, sizeof(*b));
  if (b != NULL) tfe_count_inc(TFE_OBJ_BUFFER);
  return b;
}

TF_Buffer* TF_NewBufferFromString(const void* proto, size_t proto_len) {
  TF_Buffer* b;
  void* copy;
  if (proto == NULL && proto_len != 0) return NULL;
  copy = tfe_malloc(proto_len);
  if (copy == NULL) return NULL;
  if (proto_len) memcpy(copy, proto, proto_len);
  b = TF_NewBuffer();
  if (b == NULL) {
    tfe_free(copy);
    return NULL;
  }
  b->data = copy;
  b->length = proto_len;
  b->data_deallocator = free_buffer_bytes;
  return b;
}

void TF_DeleteBuffer(TF_Buffer* b) {
  if (b == NULL) return;
  if (b->data_deallocator != NULL) {
    b->data_deallocator((void*)b->data, b->length);
  }
  tfe_free(b);
  tfe_count_dec(TFE_OBJ_BUFFER);
}

TF_Buffer TF_GetBuffer(TF_Buffer* buffer) {
  TF_Buffer empty = {NULL, 0, NULL};
  return buffer == NULL ? empty : *buffer;
}
