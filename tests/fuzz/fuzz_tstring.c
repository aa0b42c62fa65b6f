/* Fuzz harness for TF_TString (include/tsl/platform/ctstring_internal.h,
 * csrc/core/tstring.c): a byte-coded program of string operations on four
 * strings, each checked against a plain byte-array model after every step.
 *
 * What it looks for: crashes, leaks, reads or writes outside a string's
 * buffer (ASan), and these invariants: a string's size and bytes always
 * equal the model's, the data is NUL-terminated whenever the string owns
 * it, the capacity of an owned string is at least its size, and a view
 * refers to exactly the bytes it was given. Operations that cannot get
 * memory (huge sizes) leave the string as it was.
 *
 * Built with the other targets (tests/fuzz/CMakeLists.txt; see
 * tests/fuzz/README.md). Input: a sequence of instructions, each an
 * opcode byte (low 4 bits: operation, bits 4-5: destination string,
 * bits 6-7: source string) followed by the operands that operation
 * reads (a length byte, then that many literal bytes, or a size byte). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorflow/c/tf_tstring.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

#define NSTR 4
/* Model sizes stay below this (operations that would exceed it are
 * skipped), so a run stays fast. */
#define MAX_LEN 4096

typedef struct model {
  char bytes[MAX_LEN];
  size_t size;
} model;

static const uint8_t* g_in;
static size_t g_left;

static unsigned u8(void) {
  if (g_left == 0) return 0;
  g_left--;
  return *g_in++;
}

/* A size operand: small (0..255), around the small-string limit, a few
 * KiB, or one that cannot be allocated. */
static size_t size_operand(void) {
  unsigned b = u8();
  switch (b >> 6) {
    case 0:
      return u8();
    case 1:
      return TF_TString_SmallCapacity - 2 + (b & 3);
    case 2:
      return (size_t)((b & 63) + 1) * 64;
    default: {
      static const size_t huge[] = {SIZE_MAX,          SIZE_MAX - 1,
                                    SIZE_MAX - 16,     SIZE_MAX / 2,
                                    SIZE_MAX / 4 + 1, (size_t)1 << 62};
      return huge[b % (sizeof huge / sizeof huge[0])];
    }
  }
}

static void fail(int idx, const char* what) {
  fprintf(stderr, "tstring %d: %s\n", idx, what);
  abort();
}

static void check(const TF_TString* s, const model* m, int idx) {
  size_t n = TF_TString_GetSize(s);
  const char* p = TF_TString_GetDataPointer(s);
  TF_TString_Type t = TF_TString_GetType(s);
  if (n != m->size) fail(idx, "size differs from the model");
  if (TF_StringGetSize(s) != n) fail(idx, "TF_StringGetSize differs");
  if (TF_StringGetType(s) != t) fail(idx, "TF_StringGetType differs");
  if (TF_StringGetDataPointer(s) != p) fail(idx, "data pointers differ");
  if (n > 0 && memcmp(p, m->bytes, n) != 0) fail(idx, "bytes differ");
  if (t == TF_TSTR_SMALL || t == TF_TSTR_LARGE) {
    if (p[n] != '\0') fail(idx, "owned string not NUL-terminated");
    if (TF_TString_GetCapacity(s) < n) fail(idx, "capacity below size");
    if (TF_StringGetCapacity(s) != TF_TString_GetCapacity(s)) {
      fail(idx, "TF_StringGetCapacity differs");
    }
  }
  if (t == TF_TSTR_SMALL && n > TF_TString_SmallCapacity) {
    fail(idx, "small string too long");
  }
}

/* Literal bytes from the input (length byte first). */
static size_t literal(char* buf) {
  size_t n = u8(), i;
  for (i = 0; i < n; i++) buf[i] = (char)u8();
  return n;
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  TF_TString s[NSTR];
  static model m[NSTR];
  /* Views point into this buffer, which outlives every string; it is
   * only appended to during a run, so viewed bytes never change. */
  static char arena[256 * 256];
  size_t arena_used = 0;
  char lit[256];
  int i, steps = 0;
  g_in = data;
  g_left = size;
  for (i = 0; i < NSTR; i++) {
    if (i % 2) {
      TF_StringInit(&s[i]);
    } else {
      TF_TString_Init(&s[i]);
    }
    m[i].size = 0;
  }
  while (g_left > 0 && steps++ < 256) {
    unsigned op = u8();
    int d = (op >> 4) & 3, src = (op >> 6) & 3;
    size_t n, k;
    switch (op & 15) {
      case 0: /* Copy a literal (alternating the two entry points) */
        n = literal(lit);
        if (src & 1) {
          TF_StringCopy(&s[d], lit, n);
        } else {
          TF_TString_Copy(&s[d], lit, n);
        }
        memcpy(m[d].bytes, lit, n);
        m[d].size = n;
        break;
      case 1: /* AppendN a literal */
        n = literal(lit);
        if (m[d].size + n > MAX_LEN) break;
        TF_TString_AppendN(&s[d], lit, n);
        memcpy(m[d].bytes + m[d].size, lit, n);
        m[d].size += n;
        break;
      case 2: /* Append another string (possibly itself) */
        n = m[src].size;
        if (m[d].size + n > MAX_LEN) break;
        TF_TString_Append(&s[d], &s[src]);
        memmove(m[d].bytes + m[d].size, m[src].bytes, n);
        m[d].size += n;
        break;
      case 3: /* Assign */
        TF_TString_Assign(&s[d], &s[src]);
        if (d != src) m[d] = m[src];
        break;
      case 4: /* Move */
        TF_TString_Move(&s[d], &s[src]);
        if (d != src) {
          m[d] = m[src];
          m[src].size = 0;
        }
        break;
      case 5: /* AssignView of a literal kept in the arena */
        n = literal(lit);
        k = arena_used;
        memcpy(arena + k, lit, n);
        arena_used += n;
        if (src & 1) {
          TF_StringAssignView(&s[d], arena + k, n);
        } else {
          TF_TString_AssignView(&s[d], arena + k, n);
        }
        memcpy(m[d].bytes, lit, n);
        m[d].size = n;
        break;
      case 6: /* Resize with a fill byte */
        n = size_operand();
        k = u8();
        if (n > MAX_LEN) break; /* would really fill that much memory */
        if (TF_TString_Resize(&s[d], n, (char)k) != NULL) {
          if (n > m[d].size) memset(m[d].bytes + m[d].size, (int)k,
                                    n - m[d].size);
          m[d].size = n;
        }
        break;
      case 7: /* ResizeUninitialized, then fill the new bytes */
        n = size_operand();
        {
          char* p = TF_TString_ResizeUninitialized(&s[d], n);
          if (p != NULL) {
            if (n > MAX_LEN) fail(d, "an impossible size was allocated");
            if (n > m[d].size) {
              memset(p + m[d].size, 'u', n - m[d].size);
              memset(m[d].bytes + m[d].size, 'u', n - m[d].size);
            }
            m[d].size = n;
          }
        }
        break;
      case 8: /* Reserve */
        n = size_operand();
        TF_TString_Reserve(&s[d], n);
        if (n > MAX_LEN && TF_TString_GetCapacity(&s[d]) >= n &&
            TF_TString_GetType(&s[d]) == TF_TSTR_LARGE) {
          fail(d, "an impossible capacity was reserved");
        }
        break;
      case 9: /* ReserveAmortized */
        n = size_operand();
        TF_TString_ReserveAmortized(&s[d], n);
        break;
      case 10: /* GetMutableDataPointer and write through it */
        {
          char* p = TF_TString_GetMutableDataPointer(&s[d]);
          if (p != NULL && m[d].size > 0) {
            k = u8() % m[d].size;
            p[k] = (char)u8();
            m[d].bytes[k] = p[k];
          }
        }
        break;
      case 11: /* Dealloc (alternating the two entry points) */
        if (src & 1) {
          TF_StringDealloc(&s[d]);
        } else {
          TF_TString_Dealloc(&s[d]);
        }
        m[d].size = 0;
        break;
      case 12: /* Copy from the string's own bytes (a suffix) */
        n = m[d].size;
        k = n ? u8() % (n + 1) : 0;
        TF_TString_Copy(&s[d], TF_TString_GetDataPointer(&s[d]) + k, n - k);
        memmove(m[d].bytes, m[d].bytes + k, n - k);
        m[d].size = n - k;
        break;
      case 13: /* AppendN from the string's own bytes */
        n = m[d].size;
        if (n == 0 || 2 * n > MAX_LEN) break;
        k = u8() % n;
        TF_TString_AppendN(&s[d], TF_TString_GetDataPointer(&s[d]) + k,
                           n - k);
        memmove(m[d].bytes + n, m[d].bytes + k, n - k);
        m[d].size = n + (n - k);
        break;
      default: /* Copy another string's bytes */
        n = m[src].size;
        TF_TString_Copy(&s[d], TF_TString_GetDataPointer(&s[src]), n);
        if (d != src) memmove(m[d].bytes, m[src].bytes, n);
        m[d].size = n;
        break;
    }
    for (i = 0; i < NSTR; i++) check(&s[i], &m[i], i);
  }
  for (i = 0; i < NSTR; i++) TF_TString_Dealloc(&s[i]);
  return 0;
}
