/* Lengths that wrap around (issue 13, defect 3): a size such as SIZE_MAX,
 * where size + 1 or a rounded-up capacity overflows, must be refused
 * before anything is allocated or written, never turned into a tiny block
 * that is then overrun. TF_TString functions leave the string unchanged
 * (and the ones returning a pointer return NULL); attr setters make
 * TFE_Execute fail with RESOURCE_EXHAUSTED; other length-taking functions
 * fail cleanly. The sanitizer build shows there is no out-of-bounds write. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "eager_test_util.h"
#include "tensorflow/c/c_api_experimental.h"
#include "tensorflow/c/tf_tstring.h"
#include "tsl/platform/ctstring_internal.h"

#ifndef TF_TSTRING_MAX_SIZE /* lets this test build against older headers */
#define TF_TSTRING_MAX_SIZE ((size_t)-1 >> 2)
#endif

/* Sizes that cannot be a string's: SIZE_MAX wraps every capacity
 * computation; the others are just above what the size field holds. */
static const size_t kHuge[] = {SIZE_MAX, SIZE_MAX - 1, SIZE_MAX - 15,
                               TF_TSTRING_MAX_SIZE + 1};
#define NHUGE (sizeof(kHuge) / sizeof(kHuge[0]))

static void check_bytes(const TF_TString* s, const char* want) {
  size_t n = strlen(want);
  CHECK_EQ_SIZE(TF_TString_GetSize(s), n);
  CHECK(memcmp(TF_TString_GetDataPointer(s), want, n) == 0);
}

/* A SMALL, a LARGE and a VIEW string with known contents. */
static void make_three(TF_TString* t) {
  static const char big[] = "a string too long to be stored inline";
  TF_TString_Init(&t[0]);
  TF_TString_Copy(&t[0], "short", 5);
  TF_TString_Init(&t[1]);
  TF_TString_Copy(&t[1], big, sizeof(big) - 1);
  TF_TString_Init(&t[2]);
  TF_TString_AssignView(&t[2], big, sizeof(big) - 1);
}

static const char* want_of(int k) {
  return k == 0 ? "short" : "a string too long to be stored inline";
}

TEST(tstring_reserve_and_resize_refuse_wrapping_sizes) {
  size_t h;
  int k;
  for (h = 0; h < NHUGE; h++) {
    TF_TString t[3];
    make_three(t);
    for (k = 0; k < 3; k++) {
      TF_TString_Type type = TF_TString_GetType(&t[k]);
      size_t cap = TF_TString_GetCapacity(&t[k]);
      const char* data = TF_TString_GetDataPointer(&t[k]);
      /* Before the fix: malloc(0), a capacity of SIZE_MAX, then a write
       * past the block. */
      TF_TString_Reserve(&t[k], kHuge[h]);
      CHECK(TF_TString_GetType(&t[k]) == type);
      CHECK_EQ_SIZE(TF_TString_GetCapacity(&t[k]), cap);
      CHECK(TF_TString_GetDataPointer(&t[k]) == data);
      check_bytes(&t[k], want_of(k));
      TF_TString_ReserveAmortized(&t[k], kHuge[h]);
      CHECK_EQ_SIZE(TF_TString_GetCapacity(&t[k]), cap);
      CHECK(TF_TString_ResizeUninitialized(&t[k], kHuge[h]) == NULL);
      CHECK(TF_TString_Resize(&t[k], kHuge[h], 'x') == NULL);
      CHECK(TF_TString_GetType(&t[k]) == type);
      CHECK(TF_TString_GetDataPointer(&t[k]) == data);
      check_bytes(&t[k], want_of(k));
      /* Appending so much that the sum wraps: unchanged. */
      TF_TString_AppendN(&t[k], "xyz", kHuge[h]);
      check_bytes(&t[k], want_of(k));
      /* A copy or a view of an impossible size: unchanged. */
      TF_TString_Copy(&t[k], "xyz", kHuge[h]);
      CHECK(TF_TString_GetType(&t[k]) == type);
      check_bytes(&t[k], want_of(k));
      TF_TString_AssignView(&t[k], "xyz", kHuge[h]);
      CHECK(TF_TString_GetType(&t[k]) == type);
      check_bytes(&t[k], want_of(k));
      /* The exported family too. */
      TF_StringCopy(&t[k], "xyz", kHuge[h]);
      check_bytes(&t[k], want_of(k));
      TF_StringAssignView(&t[k], "xyz", kHuge[h]);
      check_bytes(&t[k], want_of(k));
      /* Still fully usable. */
      CHECK(TF_TString_ResizeUninitialized(&t[k], 3) != NULL);
      CHECK(TF_TString_GetSize(&t[k]) == 3);
    }
    for (k = 0; k < 3; k++) TF_TString_Dealloc(&t[k]);
  }
}

/* A VIEW reserving less than it holds gets room for all its bytes (the
 * copy used to be sized by the request only). */
TEST(tstring_reserve_of_a_view_covers_its_bytes) {
  static const char big[] = "forty bytes of text that a view refers to";
  TF_TString t;
  TF_TString_Init(&t);
  TF_TString_AssignView(&t, big, sizeof(big) - 1);
  TF_TString_Reserve(&t, 30);
  CHECK(TF_TString_GetType(&t) == TF_TSTR_LARGE);
  CHECK(TF_TString_GetCapacity(&t) >= sizeof(big) - 1);
  check_bytes(&t, big);
  CHECK_EQ_INT(TF_TString_GetDataPointer(&t)[sizeof(big) - 1], '\0');
  TF_TString_Dealloc(&t);
}

/* The largest representable size is refused by malloc, not by a wrapped
 * computation, and the string stays unchanged. Not under ASan, whose
 * allocator reports such a request instead of returning NULL. */
TEST(tstring_max_size_is_an_allocation_failure) {
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SIZE_WRAP_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(SIZE_WRAP_ASAN)
  return;
#else
  TF_TString t;
  TF_TString_Init(&t);
  TF_TString_Copy(&t, "keep", 4);
  CHECK(TF_TString_ResizeUninitialized(&t, TF_TSTRING_MAX_SIZE) == NULL);
  check_bytes(&t, "keep");
  TF_TString_Reserve(&t, TF_TSTRING_MAX_SIZE);
  CHECK_EQ_SIZE(TF_TString_GetCapacity(&t), TF_TString_SmallCapacity);
  check_bytes(&t, "keep");
  TF_TString_Dealloc(&t);
#endif
}

/* Runs op, expecting `code`; returns the message. */
static void expect_execute(TFE_Op* op, TF_Code code, const char* needle,
                           TF_Status* s) {
  TFE_TensorHandle* out[2] = {NULL, NULL};
  int n = 2;
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, code);
  if (needle != NULL) CHECK_STR_CONTAINS(TF_Message(s), needle);
}

/* The attr setters: length + 1 used to wrap to 0 (a 1-byte block, then a
 * copy of SIZE_MAX bytes into it). Now the op fails at TFE_Execute with
 * RESOURCE_EXHAUSTED, as for any allocation that cannot be made. */
TEST(attr_setters_refuse_wrapping_lengths) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle* x = scalar_f32(1.5f, s);
  size_t h;
  int which;
  for (h = 0; h < NHUGE; h++) {
    for (which = 0; which < 4; which++) {
      TFE_Op* op = TFE_NewOp(ctx, "AsString", s);
      const void* vals[2] = {"ok", "abc"};
      size_t lens[2] = {2, kHuge[h]};
      CHECK_CODE(s, TF_OK);
      TFE_OpAddInput(op, x, s);
      CHECK_CODE(s, TF_OK);
      switch (which) {
        case 0: TFE_OpSetAttrString(op, "fill", "abc", kHuge[h]); break;
        case 1: TFE_OpSetAttrStringList(op, "fill", vals, lens, 2); break;
        case 2: TFE_OpSetAttrFunctionName(op, "fill", "abc", kHuge[h]); break;
        default: /* not an attr of AsString: kept aside, same rule */
          TFE_OpSetAttrString(op, "extra_attr", "abc", kHuge[h]);
          break;
      }
      expect_execute(op, TF_RESOURCE_EXHAUSTED, "AsString", s);
      TFE_DeleteOp(op);
    }
  }
  {
    /* Sane lengths still work. */
    TFE_Op* op = TFE_NewOp(ctx, "AsString", s);
    TFE_TensorHandle* out[1] = {NULL};
    TF_Tensor* t;
    int n = 1;
    TFE_OpAddInput(op, x, s);
    TFE_OpSetAttrString(op, "fill", " ", 1);
    TFE_Execute(op, out, &n, s);
    CHECK_CODE(s, TF_OK);
    t = TFE_TensorHandleResolve(out[0], s);
    CHECK_CODE(s, TF_OK);
    /* " " is printf's space flag, as in TF. */
    check_bytes((const TF_TString*)TF_TensorData(t), " 1.500000");
    TF_DeleteTensor(t);
    TFE_DeleteTensorHandle(out[0]);
    TFE_DeleteOp(op);
  }
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
  CHECK_LIVE_EQ(live_now(), before);
}

/* Other functions taking a length: nothing is allocated for a length that
 * wraps, and each fails in its documented way. */
TEST(length_taking_functions_refuse_wrapping_lengths) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now();
  const int64_t dims[1] = {4};
  static char data[64];
  /* Lengths no object can have; the last is just past PTRDIFF_MAX. */
  const size_t lens[] = {SIZE_MAX, SIZE_MAX - 1, SIZE_MAX - 15,
                         (size_t)PTRDIFF_MAX + 1};
  size_t h;
  for (h = 0; h < sizeof(lens) / sizeof(lens[0]); h++) {
    size_t len = lens[h];
    CHECK(TF_NewBufferFromString(data, len) == NULL);
    CHECK(TF_AllocateTensor(TF_FLOAT, dims, 1, len) == NULL);
    CHECK(TF_AllocateTensor(TF_STRING, dims, 1, len) == NULL);
    CHECK(TFE_NewTensorHandleFromScalar(TF_FLOAT, data, len, s) == NULL);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    /* Serialized protos: data + len would wrap around before a byte is
     * parsed. */
    {
      TFE_ContextOptions* o = TFE_NewContextOptions();
      TF_SessionOptions* so = TF_NewSessionOptions();
      TFE_ContextOptionsSetConfig(o, data, len, s);
      CHECK_CODE(s, TF_INVALID_ARGUMENT);
      TF_SetConfig(so, data, len, s);
      CHECK_CODE(s, TF_INVALID_ARGUMENT);
      TF_DeleteSessionOptions(so);
      TFE_DeleteContextOptions(o);
    }
  }
  {
    TFE_Context* ctx = new_ctx(s);
    TFE_Op* op = TFE_NewOp(ctx, "AsString", s);
    CHECK_CODE(s, TF_OK);
    TFE_OpSetAttrValueProto(op, "fill", data, SIZE_MAX, s);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(TF_Message(s), "proto_len");
    {
      /* Ranks whose dims array would be huge are refused before any
       * size is computed from them. */
      const int64_t d4[4] = {1, 2, 3, 4};
      const int64_t* dl[1] = {d4};
      const int huge_rank[1] = {INT32_MAX};
      TFE_OpSetAttrShape(op, "shape_attr", d4, INT32_MAX, s);
      CHECK_CODE(s, TF_INVALID_ARGUMENT);
      TFE_OpSetAttrShapeList(op, "shapes_attr", dl, huge_rank, 1, s);
      CHECK_CODE(s, TF_INVALID_ARGUMENT);
      TFE_OpSetAttrShapeList(op, "shapes_attr", dl, huge_rank, -1, s);
      CHECK_CODE(s, TF_INVALID_ARGUMENT);
    }
    TFE_DeleteOp(op);
    TFE_DeleteContext(ctx);
  }
  {
    /* A huge dimension: the byte count would wrap. */
    const int64_t big[2] = {INT64_MAX / 2, 4};
    CHECK(TF_AllocateTensor(TF_FLOAT, big, 2, 16) == NULL);
    CHECK(TF_NewTensor(TF_FLOAT, big, 2, data, sizeof(data), NULL, NULL) ==
          NULL);
  }
  TF_DeleteStatus(s);
  CHECK_LIVE_EQ(live_now(), before);
}

TFE_TEST_MAIN
