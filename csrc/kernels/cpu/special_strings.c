/* String case and whitespace kernels: StringLower, StringUpper and
 * StringStrip.
 *
 * StringLower/StringUpper with encoding '' map the ASCII letters byte by
 * byte and leave every other byte alone, as TF does. With encoding 'utf-8'
 * TF applies full Unicode case mapping (through ICU); tfe applies the same
 * mapping from generated Unicode tables (tfe_text_utf8_case_map in
 * text_case.c: text ends at a NUL byte, ill-formed UTF-8 becomes U+FFFD,
 * multi-character mappings and the final sigma as ICU does). Other
 * encodings are rejected with TF's InvalidArgument message.
 *
 * StringStrip removes leading and trailing ASCII whitespace (space, \t,
 * \n, \v, \f, \r). */
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "kernels/cpu/text_case.h"
#include "kernels/cpu/kutil.h"
#include "ops/attr_value.h"
#include "tensorflow/c/tf_tstring.h"

void tfe_register_special_string_kernels(void);

static const TF_TString* sp_sdata(const TF_Tensor* t) {
  return (const TF_TString*)kutil_data(t);
}
static TF_TString* sp_sdata_mut(TF_Tensor* t) {
  return (TF_TString*)kutil_data(t);
}

/* ---- StringLower / StringUpper ---- */

/* Reads attr "encoding": 0 for '', 1 for 'utf-8', -1 (status set) for
 * anything else. */
static int sp_encoding(tfe_kernel_context* k) {
  const char* s = NULL;
  size_t n = 0;
  if (k->attrs == NULL ||
      !tfe_attrs_get_string(k->attrs, "encoding", &s, &n, NULL) || n == 0) {
    return 0;
  }
  if (n == 5 && memcmp(s, "utf-8", 5) == 0) return 1;
  tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                  "only utf-8 or '' (no encoding) is supported, received %.*s",
                  (int)n, s);
  return -1;
}

static void sp_case_compute(tfe_kernel_context* k, int upper) {
  const TF_Tensor* in = k->inputs[0];
  const char* op = upper ? "StringUpper" : "StringLower";
  int enc = sp_encoding(k);
  int64_t n, i;
  TF_Tensor* out;
  if (enc < 0) return;
  n = kutil_num_elements(in);
  out = tfe_kernel_alloc_output(k, 0, TF_STRING, in->dims, in->num_dims);
  if (out == NULL) return;
  if (enc == 1) {
    for (i = 0; i < n; i++) {
      const TF_TString* s = &sp_sdata(in)[i];
      size_t len = 0;
      char* m = tfe_text_utf8_case_map(TF_TString_GetDataPointer(s),
                                       TF_TString_GetSize(s), upper, &len);
      if (m == NULL) {
        tfe_status_setf(k->status, TF_RESOURCE_EXHAUSTED,
                        "%s: out of memory", op);
        return;
      }
      TF_TString_Copy(&sp_sdata_mut(out)[i], m, len);
      tfe_free(m);
    }
    return;
  }
  for (i = 0; i < n; i++) {
    const TF_TString* s = &sp_sdata(in)[i];
    const char* p = TF_TString_GetDataPointer(s);
    size_t len = TF_TString_GetSize(s), j;
    char* d = TF_TString_ResizeUninitialized(&sp_sdata_mut(out)[i], len);
    if (d == NULL && len > 0) {
      tfe_status_setf(k->status, TF_RESOURCE_EXHAUSTED, "%s: out of memory",
                      op);
      return;
    }
    for (j = 0; j < len; j++) {
      char c = p[j];
      if (upper && c >= 'a' && c <= 'z') c = (char)(c - 'a' + 'A');
      if (!upper && c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
      d[j] = c;
    }
  }
}

static void sp_lower_compute(tfe_kernel_context* k) { sp_case_compute(k, 0); }
static void sp_upper_compute(tfe_kernel_context* k) { sp_case_compute(k, 1); }

/* ---- StringStrip ---- */

static int sp_is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
         c == '\r';
}

static void sp_strip_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  TF_Tensor* out =
      tfe_kernel_alloc_output(k, 0, TF_STRING, in->dims, in->num_dims);
  int64_t n, i;
  if (out == NULL) return;
  n = kutil_num_elements(in);
  for (i = 0; i < n; i++) {
    const TF_TString* s = &sp_sdata(in)[i];
    const char* p = TF_TString_GetDataPointer(s);
    size_t b = 0, e = TF_TString_GetSize(s);
    while (b < e && sp_is_space(p[b])) b++;
    while (e > b && sp_is_space(p[e - 1])) e--;
    TF_TString_Copy(&sp_sdata_mut(out)[i], p + b, e - b);
  }
}

void tfe_register_special_string_kernels(void) {
  tfe_kutil_register("StringLower", sp_lower_compute, NULL, NULL, 0, NULL,
                     NULL, 0);
  tfe_kutil_register("StringUpper", sp_upper_compute, NULL, NULL, 0, NULL,
                     NULL, 0);
  tfe_kutil_register("StringStrip", sp_strip_compute, NULL, NULL, 0, NULL,
                     NULL, 0);
}
