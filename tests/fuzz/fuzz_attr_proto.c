/* Fuzz harness for the protobuf bytes the C API accepts from callers: a
 * serialized ConfigProto (TFE_ContextOptionsSetConfig,
 * csrc/eager/config_proto.c) and a serialized AttrValue
 * (TFE_OpSetAttrValueProto, csrc/eager/attr_proto.c), set on ops whose
 * attrs have each kind (type, shape, tensor, int, list, ...; a func value
 * goes to an attr the op does not declare).
 *
 * What it looks for: crashes, leaks and sanitizer reports, and two
 * invariants: a call either succeeds or says INVALID_ARGUMENT (never
 * another code, never OK with garbage left behind), and after a refused
 * AttrValue the op can still be used (its other attrs are intact and it
 * accepts a well-formed value for the same attr).
 *
 * Built with the other targets (tests/fuzz/CMakeLists.txt; see
 * tests/fuzz/README.md). Input: byte 0 chooses the parser (even:
 * ConfigProto, odd: AttrValue) and, for AttrValue, byte 1 chooses the
 * (op, attr) pair; the rest is the proto. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/eager/c_api.h"
#include "tensorflow/c/eager/c_api_experimental.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

/* (op, attr) pairs covering every kind of attr value. */
static const struct {
  const char* op;
  const char* attr;
} kTargets[] = {
    {"Const", "value"},         {"Const", "dtype"},
    {"Cast", "SrcT"},           {"Cast", "Truncate"},
    {"Sum", "keep_dims"},       {"Sum", "Tidx"},
    {"Conv2D", "strides"},      {"Conv2D", "padding"},
    {"Conv2D", "explicit_paddings"},
    {"Conv2D", "data_format"},  {"Conv2D", "dilations"},
    {"Reshape", "Tshape"},      {"EnsureShape", "shape"},
    {"ConcatV2", "N"},          {"Split", "num_split"},
    {"Identity", "f"},          {"OptionalGetValue", "output_types"},
    {"OptionalGetValue", "output_shapes"},
    {"IdentityN", "T"},         {"DepthToSpace", "block_size"},
    {"Const", "no_such_attr"},  {"Const", ""},
};
#define NUM_TARGETS (sizeof kTargets / sizeof kTargets[0])

static TFE_Context* context(void) {
  static TFE_Context* ctx;
  if (ctx == NULL) {
    TF_Status* s = TF_NewStatus();
    TFE_ContextOptions* o = TFE_NewContextOptions();
    ctx = TFE_NewContext(o, s);
    if (TF_GetCode(s) != TF_OK) {
      fprintf(stderr, "fuzz_attr_proto: no context: %s\n", TF_Message(s));
      abort();
    }
    TFE_DeleteContextOptions(o);
    TF_DeleteStatus(s);
  }
  return ctx;
}

/* RESOURCE_EXHAUSTED is allowed too: a tensor value may claim a shape too
 * large to allocate, and running out of memory is not a parse error. */
static void expect_ok_or_invalid(TF_Status* s, const char* what) {
  TF_Code c = TF_GetCode(s);
  if (c != TF_OK && c != TF_INVALID_ARGUMENT && c != TF_RESOURCE_EXHAUSTED) {
    fprintf(stderr, "%s: unexpected code %d: %s\n", what, (int)c,
            TF_Message(s));
    abort();
  }
}

static void fuzz_config(const uint8_t* p, size_t n) {
  TF_Status* s = TF_NewStatus();
  TFE_ContextOptions* o = TFE_NewContextOptions();
  TFE_ContextOptionsSetConfig(o, n ? p : NULL, n, s);
  expect_ok_or_invalid(s, "TFE_ContextOptionsSetConfig");
  /* A second, well-formed config still applies afterwards (here: empty). */
  TFE_ContextOptionsSetConfig(o, NULL, 0, s);
  if (TF_GetCode(s) != TF_OK) {
    fprintf(stderr, "empty ConfigProto refused after fuzz bytes: %s\n",
            TF_Message(s));
    abort();
  }
  TFE_DeleteContextOptions(o);
  TF_DeleteStatus(s);
}

static void fuzz_attr(unsigned which, const uint8_t* p, size_t n) {
  /* AttrValue{type: DT_FLOAT}: field 6, varint 1. */
  static const uint8_t kFloatType[] = {0x30, 0x01};
  TF_Status* s = TF_NewStatus();
  TFE_Op* op = TFE_NewOp(context(), kTargets[which].op, s);
  if (op == NULL || TF_GetCode(s) != TF_OK) {
    fprintf(stderr, "TFE_NewOp(%s): %s\n", kTargets[which].op, TF_Message(s));
    abort();
  }
  TFE_OpSetAttrValueProto(op, kTargets[which].attr, n ? p : NULL, n, s);
  expect_ok_or_invalid(s, "TFE_OpSetAttrValueProto");
  /* The op stays usable: a plain value for another attr is accepted. */
  TFE_OpSetAttrValueProto(op, "T", kFloatType, sizeof kFloatType, s);
  expect_ok_or_invalid(s, "TFE_OpSetAttrValueProto(T)");
  TFE_DeleteOp(op);
  TF_DeleteStatus(s);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  if ((data[0] & 1) == 0) {
    fuzz_config(data + 1, size - 1);
  } else if (size >= 2) {
    fuzz_attr(data[1] % NUM_TARGETS, data + 2, size - 2);
  }
  return 0;
}
