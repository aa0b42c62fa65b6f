/* TF_Buffer: creation, copies, the data deallocator, NULL handling, live
 * counts and allocation failures. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "tensorflow/c/tf_buffer.h"
#include "tfe/tfe.h"
#include "tfe_test.h"

static int64_t live_buffers(void) {
  return TFE_LiveObjectCount(TFE_OBJ_BUFFER);
}

static int g_calls;
static void* g_data;
static size_t g_len;
static void count_and_free(void* data, size_t length) {
  g_calls++;
  g_data = data;
  g_len = length;
  free(data);
}

TEST(struct_layout_matches_tensorflow) {
  CHECK_EQ_SIZE(offsetof(TF_Buffer, data), 0);
  CHECK_EQ_SIZE(offsetof(TF_Buffer, length), sizeof(void*));
  CHECK_EQ_SIZE(offsetof(TF_Buffer, data_deallocator), 2 * sizeof(void*));
  CHECK_EQ_SIZE(sizeof(TF_Buffer), 3 * sizeof(void*));
}

TEST(new_buffer_is_empty) {
  int64_t before = live_buffers();
  TF_Buffer* b = TF_NewBuffer();
  CHECK(b != NULL);
  CHECK(b->data == NULL);
  CHECK_EQ_SIZE(b->length, 0);
  CHECK(b->data_deallocator == NULL);
  CHECK_EQ_INT(live_buffers(), before + 1);
  TF_DeleteBuffer(b);
  CHECK_EQ_INT(live_buffers(), before);
}

TEST(new_buffer_from_string_copies) {
  static const char proto[] = "\x08\x96\x01 serialized\0bytes";
  const size_t n = sizeof proto - 1;
  int64_t before = live_buffers();
  TF_Buffer* b = TF_NewBufferFromString(proto, n);
  CHECK(b != NULL);
  CHECK(b->data != NULL);
  CHECK(b->data != (const void*)proto);
  CHECK_EQ_SIZE(b->length, n);
  CHECK(memcmp(b->data, proto, n) == 0);
  CHECK(b->data_deallocator != NULL);
  CHECK_EQ_INT(live_buffers(), before + 1);
  TF_DeleteBuffer(b); /* frees the copy; ASan would flag a leak */
  CHECK_EQ_INT(live_buffers(), before);
}

TEST(new_buffer_from_string_copy_is_independent) {
  char src[8] = "abcdefg";
  TF_Buffer* b = TF_NewBufferFromString(src, 7);
  src[0] = 'Z';
  CHECK_EQ_INT(((const char*)b->data)[0], 'a');
  TF_DeleteBuffer(b);
}

TEST(new_buffer_from_string_zero_length) {
  TF_Buffer* b = TF_NewBufferFromString("ignored", 0);
  CHECK(b != NULL);
  CHECK_EQ_SIZE(b->length, 0);
  TF_DeleteBuffer(b);

  b = TF_NewBufferFromString(NULL, 0);
  CHECK(b != NULL);
  CHECK_EQ_SIZE(b->length, 0);
  TF_DeleteBuffer(b);
}

TEST(new_buffer_from_string_null_with_length) {
  int64_t before = live_buffers();
  CHECK(TF_NewBufferFromString(NULL, 5) == NULL);
  CHECK_EQ_INT(live_buffers(), before);
}

TEST(large_buffer_round_trip) {
  const size_t n = (size_t)1 << 20;
  unsigned char* src = (unsigned char*)malloc(n);
  TF_Buffer* b;
  for (size_t i = 0; i < n; i++) src[i] = (unsigned char)(i * 7 + 3);
  b = TF_NewBufferFromString(src, n);
  CHECK(b != NULL);
  CHECK_EQ_SIZE(b->length, n);
  CHECK(memcmp(b->data, src, n) == 0);
  TF_DeleteBuffer(b);
  free(src);
}

TEST(get_buffer_returns_a_copy_of_the_fields) {
  TF_Buffer* b = TF_NewBufferFromString("xyz", 3);
  TF_Buffer copy = TF_GetBuffer(b);
  CHECK(copy.data == b->data);
  CHECK_EQ_SIZE(copy.length, 3);
  CHECK(copy.data_deallocator == b->data_deallocator);
  /* Changing the copy does not change the buffer. */
  copy.length = 99;
  CHECK_EQ_SIZE(b->length, 3);
  TF_DeleteBuffer(b);

  copy = TF_GetBuffer(NULL);
  CHECK(copy.data == NULL);
  CHECK_EQ_SIZE(copy.length, 0);
  CHECK(copy.data_deallocator == NULL);
}

TEST(data_deallocator_called_once_on_delete) {
  TF_Buffer* b = TF_NewBuffer();
  void* mem = malloc(16);
  memset(mem, 1, 16);
  g_calls = 0;
  b->data = mem;
  b->length = 16;
  b->data_deallocator = count_and_free;
  TF_Buffer view = TF_GetBuffer(b);
  CHECK(view.data == mem);
  CHECK_EQ_INT(g_calls, 0);
  TF_DeleteBuffer(b);
  CHECK_EQ_INT(g_calls, 1);
  CHECK(g_data == mem);
  CHECK_EQ_SIZE(g_len, 16);
}

TEST(no_deallocator_leaves_data_alone) {
  static char mem[4] = "abc";
  TF_Buffer* b = TF_NewBuffer();
  b->data = mem;
  b->length = 3;
  TF_DeleteBuffer(b);
  CHECK_STR_EQ(mem, "abc");
}

TEST(caller_may_replace_the_deallocator) {
  /* Taking over the copied bytes: the caller clears the deallocator and
   * frees the bytes itself later, the way TF users do. */
  TF_Buffer* b = TF_NewBufferFromString("hello", 5);
  void (*dealloc)(void*, size_t) = b->data_deallocator;
  void* data = (void*)b->data;
  b->data_deallocator = NULL;
  TF_DeleteBuffer(b);
  CHECK(memcmp(data, "hello", 5) == 0);
  dealloc(data, 5);
}

TEST(delete_null_is_harmless) {
  int64_t before = live_buffers();
  TF_DeleteBuffer(NULL);
  CHECK_EQ_INT(live_buffers(), before);
}

TEST(allocation_failures_return_null_and_leak_nothing) {
  int64_t before = live_buffers();
  int saw_null = 0;
  TF_Buffer* b;
  TFE_TestFailAllocationsAfter(0);
  b = TF_NewBuffer();
  TFE_TestFailAllocationsAfter(-1);
  CHECK(b == NULL);
  CHECK_EQ_INT(live_buffers(), before);

  for (int n = 0; n < 4; n++) {
    TFE_TestFailAllocationsAfter(n);
    b = TF_NewBufferFromString("payload", 7);
    TFE_TestFailAllocationsAfter(-1);
    if (b == NULL) {
      saw_null = 1;
    } else {
      CHECK_EQ_SIZE(b->length, 7);
      CHECK(memcmp(b->data, "payload", 7) == 0);
      TF_DeleteBuffer(b);
    }
    CHECK_EQ_INT(live_buffers(), before);
  }
  CHECK(saw_null);
}

TFE_TEST_MAIN
