/* Shape rules for the string processing ops (split, hash buckets, joins,
 * formatting, n-grams, base64, unicode), as TF 2.21's shape functions
 * tell them. */
#include <string.h>

#include "ops/shape_infer_internal.h"
#include "tensorflow/c/tf_tensor.h"
#include "tensorflow/c/tf_tstring.h"

/* StringSplit / StringSplitV2(input: [N], sep: []):
 * indices [?, 2], values [?], shape [2]. */
static int rule_split(si_ctx* c) {
  si_sh in, sep, o;
  si_in(c, 0, &in);
  si_in(c, 1, &sep);
  if (!si_with_rank(c, &in, 1, &in)) return 0;
  if (!si_with_rank(c, &sep, 0, &sep)) return 0;
  si_matrix(&o, -1, 2);
  if (!si_set(c, 0, &o)) return 0;
  if (!si_set_vector(c, 1, -1)) return 0;
  return si_set_vector(c, 2, 2);
}

/* ReduceJoin reads its inputs and attrs as Sum does; UnsortedSegmentJoin as
 * UnsortedSegmentSum does. Both reuse those rules. */
static int rule_like(si_ctx* c, const char* op) {
  const si_rule* r = si_find_rule(op);
  if (r == NULL || r->fn == NULL) return 1;
  return r->fn(c);
}
static int rule_reduce_join(si_ctx* c) { return rule_like(c, "Sum"); }
static int rule_segment_join(si_ctx* c) {
  return rule_like(c, "UnsortedSegmentSum");
}

/* Number of pieces absl::StrSplit(t, p) makes, minus one: the number of
 * placeholders (an empty placeholder splits into single characters). */
static int64_t count_placeholders(const char* t, const char* p) {
  size_t tl = strlen(t), pl = strlen(p), i = 0;
  int64_t n = 0;
  if (pl == 0) return tl == 0 ? 0 : (int64_t)tl - 1;
  while (i + pl <= tl) {
    if (memcmp(t + i, p, pl) == 0) {
      n++;
      i += pl;
    } else {
      i++;
    }
  }
  return n;
}

/* StringFormat: a scalar; the template must hold one placeholder per
 * input. */
static int rule_string_format(si_ctx* c) {
  const char* t = si_attr_str(c, "template", "%s");
  const char* p = si_attr_str(c, "placeholder", "%s");
  int64_t n = count_placeholders(t, p);
  if (n != si_num_inputs(c)) {
    return si_err(c,
                  "num placeholders in template and num inputs must match: "
                  "%lld vs. %d",
                  (long long)n, si_num_inputs(c));
  }
  return si_set_scalar(c, 0);
}

/* UnicodeDecode(WithOffsets): row_splits [num_elements + 1], values [?]. */
static int rule_unicode_decode(si_ctx* c) {
  si_sh in;
  int64_t n, i;
  si_in(c, 0, &in);
  n = si_num_elements(&in);
  if (n >= 0 && !si_dim_add(c, n, 1, &n)) return 0;
  if (!si_set_vector(c, 0, n)) return 0;
  for (i = 1; i < si_num_outputs(c); i++) {
    if (!si_set_vector(c, (int)i, -1)) return 0;
  }
  return 1;
}

/* UnicodeEncode(values: [?], splits: [n]): [n - 1]. */
static int rule_unicode_encode(si_ctx* c) {
  si_sh v, sp;
  int64_t n;
  si_in(c, 0, &v);
  si_in(c, 1, &sp);
  if (!si_with_rank(c, &v, 1, &v)) return 0;
  if (!si_with_rank(c, &sp, 1, &sp)) return 0;
  if (!si_dim_sub(c, sp.d[0], 1, &n)) return 0;
  return si_set_vector(c, 0, n);
}

/* StringNGrams(data: [?], splits: [n]): ngrams [?], ngrams_splits [n]. */
static int rule_ngrams(si_ctx* c) {
  si_sh d, sp;
  si_in(c, 0, &d);
  si_in(c, 1, &sp);
  if (!si_with_rank(c, &d, 1, &d)) return 0;
  if (!si_with_rank(c, &sp, 1, &sp)) return 0;
  if (!si_set_vector(c, 0, -1)) return 0;
  return si_set(c, 1, &sp);
}

/* Fingerprint(data: rank >= 1, method: []): [batch, 8] (the 8 only when
 * the method is a known constant). */
static int rule_fingerprint(si_ctx* c) {
  si_sh d, m, o;
  int64_t size = -1;
  TF_Tensor* mv;
  si_in(c, 0, &d);
  si_in(c, 1, &m);
  if (!si_with_rank_at_least(c, &d, 1, &d)) return 0;
  if (!si_with_rank(c, &m, 0, &m)) return 0;
  mv = si_value(c, 1);
  if (mv != NULL && TF_TensorType(mv) == TF_STRING &&
      TF_NumDims(mv) == 0) {
    const TF_TString* ts = (const TF_TString*)TF_TensorData(mv);
    size_t n = TF_TString_GetSize(ts);
    const char* p = TF_TString_GetDataPointer(ts);
    if (n != 10 || memcmp(p, "farmhash64", 10) != 0) {
      return si_err(c, "Unsupported method: %.*s", (int)(n > 200 ? 200 : n),
                    p);
    }
    size = 8;
  }
  si_matrix(&o, d.rank > 0 ? d.d[0] : -1, size);
  return si_set(c, 0, &o);
}

/* PrintV2: no outputs; the input must be a scalar. */
static int rule_print_v2(si_ctx* c) {
  int r = si_in_rank(c, 0);
  if (r > 0) {
    return si_err(c, "input must be a scalar, but has rank: %d", r);
  }
  return 1;
}

/* Assert: no outputs (the condition's rank is the kernel's to check). */
static int rule_no_outputs(si_ctx* c) {
  (void)c;
  return 1;
}

const si_rule si_rules_text[] = {
    {"StringSplit", rule_split},
    {"StringSplitV2", rule_split},
    {"StringToHashBucketFast", si_rule_unchanged},
    {"StringToHashBucketStrong", si_rule_unchanged},
    {"StringToHashBucket", si_rule_unchanged},
    {"UnsortedSegmentJoin", rule_segment_join},
    {"ReduceJoin", rule_reduce_join},
    {"StringFormat", rule_string_format},
    {"StringNGrams", rule_ngrams},
    {"EncodeBase64", si_rule_unchanged},
    {"DecodeBase64", si_rule_unchanged},
    {"UnicodeDecode", rule_unicode_decode},
    {"UnicodeDecodeWithOffsets", rule_unicode_decode},
    {"UnicodeEncode", rule_unicode_encode},
    {"UnicodeTranscode", si_rule_unchanged},
    {"PrintV2", rule_print_v2},
    {"Fingerprint", rule_fingerprint},
    {"Print", si_rule_unchanged},
    {"Assert", rule_no_outputs},
    {"Timestamp", si_rule_scalar},
    {NULL, NULL}};
