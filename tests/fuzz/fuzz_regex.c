/* Fuzz harness for tfe's regex engine (csrc/core/regex.c): the parser and
 * compiler on arbitrary patterns, the Pike VM on arbitrary text, and
 * replacement on arbitrary rewrites.
 *
 * Input: byte 0 = pattern length (at most the rest), byte 1 = rewrite
 * length (at most what remains), then the pattern, the rewrite, and the
 * text (everything left; at most MAX_TEXT bytes are used so that each
 * input stays fast: matching costs pattern size x text length).
 *
 * Invariants besides ASan/UBSan/leaks:
 *  - a compile succeeds with TFE_REGEX_OK, or fails with SYNTAX or
 *    UNSUPPORTED and a non-empty message (memory never runs out here);
 *  - a full match is exactly a search anchored at both ends;
 *  - a full match implies an unanchored search finds something;
 *  - a match's groups lie inside the whole match, begin <= end, and the
 *    whole match lies inside the text;
 *  - GlobalReplace with the rewrite "\0" gives back the text unchanged
 *    (every match is replaced by itself; skipped text is copied), and a
 *    first-match Replace with "\0" does too;
 *  - a replacement's count is >= 0, with no output when it is 0. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/regex.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

#define MAX_TEXT 512

static void fail(const char* what) {
  fprintf(stderr, "fuzz_regex: invariant broken: %s\n", what);
  abort();
}

static void check_identity(const tfe_regex* re, const char* text, size_t n,
                           int global) {
  char* out = NULL;
  size_t on = 0;
  int64_t c = tfe_regex_replace(re, NULL, text, n, "\\0", 2, global, &out, &on);
  if (c < 0) fail("replace ran out of memory");
  if (c == 0) {
    if (out != NULL) fail("no replacement but an output");
    return;
  }
  if (on != n || (n > 0 && memcmp(out, text, n) != 0)) {
    fail("replacing every match by \\0 changed the text");
  }
  tfe_free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  size_t plen, rlen, tlen;
  const char *pat, *rw, *text;
  char err[256];
  tfe_regex_err code;
  tfe_regex* re;
  int64_t caps[2 * 6];
  int full, found, anchored, i;
  if (size < 2) return 0;
  plen = data[0];
  rlen = data[1];
  data += 2;
  size -= 2;
  if (plen > size) plen = size;
  pat = (const char*)data;
  data += plen;
  size -= plen;
  if (rlen > size) rlen = size;
  rw = (const char*)data;
  data += rlen;
  size -= rlen;
  tlen = size > MAX_TEXT ? MAX_TEXT : size;
  text = (const char*)data;

  re = tfe_regex_compile(pat, plen, &code, err, sizeof err);
  if (re == NULL) {
    if (code != TFE_REGEX_ERR_SYNTAX && code != TFE_REGEX_ERR_UNSUPPORTED) {
      fail("compile failed with an unexpected code");
    }
    if (err[0] == '\0') fail("compile failed without a message");
    return 0;
  }
  if (code != TFE_REGEX_OK) fail("compiled but the code is not OK");

  full = tfe_regex_full_match(re, NULL, text, tlen);
  anchored = tfe_regex_search(re, NULL, text, tlen, 0, 1, 1, NULL, 0);
  if (full < 0 || anchored < 0) fail("match ran out of memory");
  if (full != anchored) fail("full match differs from a doubly anchored search");

  found = tfe_regex_search(re, NULL, text, tlen, 0, 0, 0, caps, 6);
  if (found < 0) fail("search ran out of memory");
  if (full && !found) fail("full match but the search found nothing");
  if (found) {
    if (caps[0] < 0 || caps[0] > caps[1] || caps[1] > (int64_t)tlen) {
      fail("whole match outside the text");
    }
    for (i = 1; i < 6; i++) {
      int64_t b = caps[2 * i], e = caps[2 * i + 1];
      if (b < 0 && e < 0) continue;
      if (b < 0 || e < 0 || b > e) fail("group with a bad span");
      if (i <= tfe_regex_num_groups(re) && (b < caps[0] || e > caps[1])) {
        fail("group outside the whole match");
      }
    }
  }
  check_identity(re, text, tlen, 1);
  check_identity(re, text, tlen, 0);
  {
    char* out = NULL;
    size_t on = 0;
    int64_t c = tfe_regex_replace(re, NULL, text, tlen, rw, rlen, 1, &out, &on);
    if (c < 0) fail("replace ran out of memory");
    if (c == 0 && out != NULL) fail("no replacement but an output");
    tfe_free(out);
    c = tfe_regex_replace(re, NULL, text, tlen, rw, rlen, 0, &out, &on);
    if (c < 0 || c > 1) fail("first-match replace count");
    tfe_free(out);
  }
  tfe_regex_free(re);
  return 0;
}
