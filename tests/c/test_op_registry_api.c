/* tfe's registry listing for bindings (include/tfe/op_registry.h), through
 * the shared library's exported symbols. */
#include <string.h>

#include "tensorflow/c/tf_buffer.h"
#include "tensorflow/c/tf_status.h"
#include "tfe/op_registry.h"
#include "tfe/tfe.h"
#include "tfe_test.h"

static int g_freed;
static void count_free(void* data, size_t len) {
  (void)data;
  (void)len;
  g_freed++;
}

TEST(list_op_names) {
  TF_Buffer* b = TF_NewBuffer();
  const char* text;
  int lines = 0;
  size_t i;
  TFE_ListOpNames(b);
  CHECK(b->data != NULL);
  CHECK(b->length > 0);
  CHECK(b->data_deallocator != NULL);
  text = (const char*)b->data;
  CHECK_EQ_INT(text[b->length], '\0');
  CHECK_EQ_INT(text[b->length - 1], '\n');
  CHECK(strncmp(text, "AddV2\n", 6) == 0); /* registration order */
  CHECK_STR_CONTAINS(text, "\nMatMul\n");
  CHECK_STR_CONTAINS(text, "\nVarHandleOp\n");
  CHECK_STR_CONTAINS(text, "\nNoOp\n");
  for (i = 0; i < b->length; i++) lines += text[i] == '\n';
  CHECK(lines >= 180);
  TF_DeleteBuffer(b);
  TFE_ListOpNames(NULL); /* ignored */
}

TEST(get_op_def_specs) {
  TF_Buffer* b = TF_NewBuffer();
  TF_Status* s = TF_NewStatus();
  const char* text;
  TFE_GetOpDefSpecs("MatMul", b, s);
  CHECK_CODE(s, TF_OK);
  text = (const char*)b->data;
  CHECK_EQ_SIZE(strlen(text), b->length);
  CHECK(strncmp(text, "in: a: T\nin: b: T\nout: product: T\n", 34) == 0);
  CHECK_STR_CONTAINS(text, "\nattr: transpose_a: bool = false\n");
  CHECK_STR_CONTAINS(text, "\nattr: T: {bfloat16, half, float, double, int32, "
                           "int64, uint8, uint16, uint32, uint64, complex64, "
                           "complex128}\n");
  /* A second call releases the first block and takes a new one. */
  TFE_GetOpDefSpecs("ConcatV2", b, s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_CONTAINS((const char*)b->data, "in: values: N * T\n");
  CHECK_STR_CONTAINS((const char*)b->data, "attr: N: int >= 2\n");
  CHECK_STR_CONTAINS((const char*)b->data,
                     "attr: Tidx: {int32, int64} = DT_INT32\n");
  TFE_GetOpDefSpecs("RandomUniform", b, s);
  CHECK_STR_CONTAINS((const char*)b->data, "\nstateful\n");
  TF_DeleteBuffer(b);
  TF_DeleteStatus(s);
}

TEST(get_op_def_specs_errors) {
  TF_Buffer* b = TF_NewBuffer();
  TF_Status* s = TF_NewStatus();
  static char keep[] = "keep";
  b->data = keep;
  b->length = 4;
  b->data_deallocator = count_free;
  g_freed = 0;
  TFE_GetOpDefSpecs("NoSuchOpXyz", b, s);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_STR_CONTAINS(TF_Message(s), "NoSuchOpXyz");
  /* Untouched on failure. */
  CHECK(b->data == keep);
  CHECK_EQ_INT(g_freed, 0);
  TFE_GetOpDefSpecs(NULL, b, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_GetOpDefSpecs("AddV2", NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  /* Success releases what the buffer held before. */
  TFE_GetOpDefSpecs("AddV2", b, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(g_freed, 1);
  CHECK(b->data != keep);
  TF_DeleteBuffer(b);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
