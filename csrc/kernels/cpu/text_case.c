/* Full Unicode case mapping of UTF-8 text (see text_case.h). */
#include "kernels/cpu/text_case.h"

#include <string.h>

#include "kernels/cpu/text_util.h"

/* Index of cp in a sorted table of rows whose first column is the code
 * point (row width w), or -1. */
static int case_find(const uint32_t* t, int n, int w, uint32_t cp) {
  int lo = 0, hi = n - 1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2;
    uint32_t v = t[(size_t)mid * (size_t)w];
    if (v == cp) return mid;
    if (v < cp) {
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return -1;
}

static int case_in_ranges(const uint32_t (*r)[2], int n, uint32_t cp) {
  int lo = 0, hi = n - 1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2;
    if (cp < r[mid][0]) {
      hi = mid - 1;
    } else if (cp > r[mid][1]) {
      lo = mid + 1;
    } else {
      return 1;
    }
  }
  return 0;
}

static void put_utf8(tx_buf* b, uint32_t cp) {
  unsigned char t[4];
  if (cp < 0x80) {
    t[0] = (unsigned char)cp;
    tx_buf_add(b, t, 1);
  } else if (cp < 0x800) {
    t[0] = (unsigned char)(0xC0 | (cp >> 6));
    t[1] = (unsigned char)(0x80 | (cp & 0x3F));
    tx_buf_add(b, t, 2);
  } else if (cp < 0x10000) {
    t[0] = (unsigned char)(0xE0 | (cp >> 12));
    t[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
    t[2] = (unsigned char)(0x80 | (cp & 0x3F));
    tx_buf_add(b, t, 3);
  } else {
    t[0] = (unsigned char)(0xF0 | (cp >> 18));
    t[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
    t[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
    t[3] = (unsigned char)(0x80 | (cp & 0x3F));
    tx_buf_add(b, t, 4);
  }
}

/* The Final_Sigma condition for the capital sigma at cps[i]. */
static int final_sigma(const int32_t* cps, size_t n, size_t i) {
  size_t j = i;
  while (j > 0 && case_in_ranges(tfe_case_ignorable, tfe_case_ignorable_n,
                                 (uint32_t)cps[j - 1])) {
    j--;
  }
  if (j == 0 ||
      !case_in_ranges(tfe_case_cased, tfe_case_cased_n, (uint32_t)cps[j - 1])) {
    return 0;
  }
  j = i + 1;
  while (j < n && case_in_ranges(tfe_case_ignorable, tfe_case_ignorable_n,
                                 (uint32_t)cps[j])) {
    j++;
  }
  return j == n ||
         !case_in_ranges(tfe_case_cased, tfe_case_cased_n, (uint32_t)cps[j]);
}

char* tfe_text_utf8_case_map(const char* s, size_t n, int upper,
                             size_t* out_len) {
  const unsigned char* u = (const unsigned char*)s;
  const void* nul = memchr(s, 0, n);
  int32_t* cps;
  size_t ncp = 0, pos = 0, i;
  tx_buf b;
  if (nul != NULL) n = (size_t)((const char*)nul - s);
  /* ASCII text maps byte by byte. */
  for (i = 0; i < n && u[i] < 0x80; i++) {
  }
  if (i == n) {
    char* r = (char*)tfe_malloc(n + 1);
    if (r == NULL) return NULL;
    for (i = 0; i < n; i++) {
      char c = s[i];
      if (upper && c >= 'a' && c <= 'z') c = (char)(c - 32);
      if (!upper && c >= 'A' && c <= 'Z') c = (char)(c + 32);
      r[i] = c;
    }
    *out_len = n;
    return r;
  }
  cps = (int32_t*)tfe_malloc((n + 1) * sizeof(int32_t));
  if (cps == NULL) return NULL;
  while (pos < n) {
    int32_t cp = 0;
    if (!tfe_text_utf8_next(u, n, &pos, &cp)) cp = 0xFFFD;
    cps[ncp++] = cp;
  }
  tx_buf_init(&b);
  /* at least one byte, so an empty result is a valid pointer too */
  tx_buf_reserve(&b, n + 1);
  for (i = 0; i < ncp; i++) {
    uint32_t cp = (uint32_t)cps[i];
    const uint32_t(*full)[4] = upper ? tfe_case_upper_full : tfe_case_lower_full;
    int nfull = upper ? tfe_case_upper_full_n : tfe_case_lower_full_n;
    const uint32_t(*simple)[2] = upper ? tfe_case_upper : tfe_case_lower;
    int nsimple = upper ? tfe_case_upper_n : tfe_case_lower_n;
    int k;
    if (cp < 0x80) {
      if (upper && cp >= 'a' && cp <= 'z') cp -= 32;
      if (!upper && cp >= 'A' && cp <= 'Z') cp += 32;
      put_utf8(&b, cp);
      continue;
    }
    if (!upper && cp == 0x3A3) {
      put_utf8(&b, final_sigma(cps, ncp, i) ? 0x3C2 : 0x3C3);
      continue;
    }
    k = case_find(&full[0][0], nfull, 4, cp);
    if (k >= 0) {
      int m;
      for (m = 1; m < 4 && full[k][m] != 0; m++) put_utf8(&b, full[k][m]);
      continue;
    }
    k = case_find(&simple[0][0], nsimple, 2, cp);
    put_utf8(&b, k >= 0 ? simple[k][1] : cp);
  }
  tfe_free(cps);
  if (!b.ok) {
    tx_buf_free(&b);
    return NULL;
  }
  *out_len = b.n;
  return b.p;
}
