/* TF_TString: the inline TF_TString_* family (ctstring_internal.h) and the
 * exported TF_String* family (tf_tstring.h). Layout, the SMALL/LARGE
 * boundary, VIEW and OFFSET strings, views with a reference-counted
 * owner, copies, appends (also of a string's own bytes), resize, reserve,
 * assign, move, dealloc and NULL handling. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tensorflow/c/tf_tstring.h"
#include "tsl/platform/ctstring_internal.h"
#include "tfe_test.h"

/* The bytes of a string equal want[0, n). */
#define CHECK_TSTR(str, want, n)                                        \
  do {                                                                  \
    const TF_TString* s_ = (str);                                       \
    size_t n_ = (n);                                                    \
    CHECK_EQ_SIZE(TF_TString_GetSize(s_), n_);                          \
    if (n_ && memcmp(TF_TString_GetDataPointer(s_), (want), n_) != 0)   \
      TFE_FAIL("contents of %s differ from %s", #str, #want);           \
  } while (0)

/* An owned string is NUL-terminated and has capacity >= size. */
static void check_owned(const TF_TString* s) {
  TF_TString_Type type = TF_TString_GetType(s);
  CHECK(type == TF_TSTR_SMALL || type == TF_TSTR_LARGE);
  CHECK(TF_TString_GetCapacity(s) >= TF_TString_GetSize(s));
  CHECK_EQ_INT(TF_TString_GetDataPointer(s)[TF_TString_GetSize(s)], '\0');
}

/* A TF_TString of type OFFSET followed by the bytes it refers to. */
typedef struct {
  TF_TString str;
  char bytes[32];
} offset_string;

static void make_offset(offset_string* o, const char* text, uint32_t n) {
  memset(o, 0, sizeof *o);
  memcpy(o->bytes, text, n);
  o->str.u.offset.size = (n << 2) | TF_TSTR_OFFSET;
  o->str.u.offset.offset = (uint32_t)sizeof(TF_TString);
  o->str.u.offset.count = 1;
}

/* ---- layout ----------------------------------------------------------- */

TEST(layout_matches_tensorflow) {
  CHECK_EQ_SIZE(sizeof(TF_TString), 24);
  CHECK_EQ_SIZE(sizeof(TF_TString_Large), 24);
  CHECK_EQ_SIZE(sizeof(TF_TString_View), 24);
  CHECK_EQ_SIZE(sizeof(TStringOwnerCApi), 24);
  CHECK_EQ_SIZE(sizeof(TF_TString_Offset), 12);
  CHECK_EQ_SIZE(sizeof(TF_TString_Small), 24);
  CHECK_EQ_SIZE(sizeof(TF_TString_Raw), 24);
  CHECK_EQ_SIZE(offsetof(TF_TString_Large, size), 0);
  CHECK_EQ_SIZE(offsetof(TF_TString_Large, cap), 8);
  CHECK_EQ_SIZE(offsetof(TF_TString_Large, ptr), 16);
  CHECK_EQ_SIZE(offsetof(TF_TString_View, size), 0);
  CHECK_EQ_SIZE(offsetof(TF_TString_View, ptr), 8);
  CHECK_EQ_SIZE(offsetof(TF_TString_View, owner_ref), 16);
  CHECK_EQ_SIZE(offsetof(TStringOwnerCApi, ref), 0);
  CHECK_EQ_SIZE(offsetof(TStringOwnerCApi, unref), 8);
  CHECK_EQ_SIZE(offsetof(TStringOwnerCApi, obj), 16);
  CHECK_EQ_SIZE(offsetof(TF_TString_Offset, size), 0);
  CHECK_EQ_SIZE(offsetof(TF_TString_Offset, offset), 4);
  CHECK_EQ_SIZE(offsetof(TF_TString_Offset, count), 8);
  CHECK_EQ_SIZE(offsetof(TF_TString_Small, size), 0);
  CHECK_EQ_SIZE(offsetof(TF_TString_Small, str), 1);
  CHECK_EQ_SIZE(offsetof(TF_TString, u), 0);
  CHECK_EQ_INT(TF_TString_SmallCapacity, 22);
  CHECK_EQ_INT(TF_TSTR_SMALL, 0);
  CHECK_EQ_INT(TF_TSTR_LARGE, 1);
  CHECK_EQ_INT(TF_TSTR_OFFSET, 2);
  CHECK_EQ_INT(TF_TSTR_VIEW, 3);
  CHECK_EQ_INT(TF_TSTR_TYPE_MASK, 3);
}

TEST(first_byte_encodes_size_and_type) {
  static const char ext[] = "view me";
  TF_TString s;
  TF_TString_Init(&s);
  TF_TString_Copy(&s, "hello", 5);
  CHECK_EQ_INT(s.u.raw.raw[0], (5 << 2) | TF_TSTR_SMALL);
  CHECK_EQ_INT(s.u.smll.size, 20);
  CHECK(memcmp(&s.u.raw.raw[1], "hello\0", 6) == 0);

  TF_TString_Copy(&s, "0123456789012345678901234567890", 31);
  CHECK_EQ_INT(s.u.raw.raw[0], ((31 << 2) | TF_TSTR_LARGE) & 0xff);
  CHECK_EQ_SIZE(s.u.large.size, (31u << 2) | TF_TSTR_LARGE);
  CHECK(s.u.large.cap >= 31);
  CHECK(TF_TString_GetDataPointer(&s) == s.u.large.ptr);

  TF_TString_AssignView(&s, ext, 7);
  CHECK_EQ_INT(s.u.raw.raw[0], (7 << 2) | TF_TSTR_VIEW);
  CHECK_EQ_SIZE(s.u.view.size, (7u << 2) | TF_TSTR_VIEW);
  CHECK(s.u.view.ptr == ext);

  /* Sizes above 63 spill into the following bytes, little-endian. */
  {
    char big[300];
    memset(big, 'q', sizeof big);
    TF_TString_Copy(&s, big, 300);
    CHECK_EQ_INT(s.u.raw.raw[0], ((300 << 2) | 1) & 0xff);
    CHECK_EQ_INT(s.u.raw.raw[1], ((300 << 2) | 1) >> 8);
  }
  TF_TString_Dealloc(&s);
}

TEST(static_init_and_zero_bytes_are_empty) {
  TF_TString a = TF_TString_STATIC_INIT;
  TF_TString b;
  memset(&b, 0, sizeof b);
  CHECK_EQ_INT(TF_TString_GetType(&a), TF_TSTR_SMALL);
  CHECK_EQ_SIZE(TF_TString_GetSize(&a), 0);
  CHECK_EQ_SIZE(TF_TString_GetSize(&b), 0);
  CHECK_EQ_SIZE(TF_TString_GetCapacity(&b), 22);
  CHECK_EQ_INT(TF_TString_GetDataPointer(&b)[0], '\0');
}

/* ---- init, small/large ------------------------------------------------ */

TEST(init_is_empty_small) {
  TF_TString s;
  memset(&s, 0x77, sizeof s);
  TF_TString_Init(&s);
  CHECK_EQ_INT(TF_TString_GetType(&s), TF_TSTR_SMALL);
  CHECK_EQ_SIZE(TF_TString_GetSize(&s), 0);
  CHECK_EQ_SIZE(TF_TString_GetCapacity(&s), 22);
  CHECK_STR_EQ(TF_TString_GetDataPointer(&s), "");
  for (size_t i = 0; i < sizeof s; i++) CHECK_EQ_INT(s.u.raw.raw[i], 0);

  memset(&s, 0x77, sizeof s);
  TF_StringInit(&s);
  CHECK_EQ_INT(TF_StringGetType(&s), TF_TSTR_SMALL);
  CHECK_EQ_SIZE(TF_StringGetSize(&s), 0);
  CHECK_EQ_SIZE(TF_StringGetCapacity(&s), 22);
  CHECK_STR_EQ(TF_StringGetDataPointer(&s), "");
}

TEST(small_large_boundary_inline) {
  const char* s22 = "exactly22charslong....";
  const char* s23 = "exactly23charslong.....";
  TF_TString s;
  TF_TString_Init(&s);
  TF_TString_Copy(&s, s22, 22);
  CHECK_EQ_INT(TF_TString_GetType(&s), TF_TSTR_SMALL);
  CHECK_TSTR(&s, s22, 22);
  check_owned(&s);
  CHECK(TF_TString_GetDataPointer(&s) == s.u.smll.str);

  TF_TString_Copy(&s, s23, 23);
  CHECK_EQ_INT(TF_TString_GetType(&s), TF_TSTR_LARGE);
  CHECK_TSTR(&s, s23, 23);
  check_owned(&s);
  /* LARGE allocations are (capacity + 1) rounded up to 16 bytes. */
  CHECK_EQ_SIZE((TF_TString_GetCapacity(&s) + 1) % 16, 0);
  TF_TString_Dealloc(&s);
}

TEST(small_large_boundary_exported) {
  const char* longs = "this string is definitely longer than twenty-two bytes";
  TF_TString s;
  TF_StringInit(&s);
  TF_StringCopy(&s, "hello", 5);
  CHECK_EQ_SIZE(TF_StringGetSize(&s), 5);
  CHECK_EQ_INT(TF_StringGetType(&s), TF_TSTR_SMALL);
  CHECK_EQ_SIZE(TF_StringGetCapacity(&s), 22);
  CHECK_STR_EQ(TF_StringGetDataPointer(&s), "hello");

  TF_StringCopy(&s, longs, strlen(longs));
  CHECK_EQ_SIZE(TF_StringGetSize(&s), 54);
  CHECK_EQ_INT(TF_StringGetType(&s), TF_TSTR_LARGE);
  CHECK(TF_StringGetCapacity(&s) >= 54);
  CHECK_STR_EQ(TF_StringGetDataPointer(&s), longs);

  TF_StringCopy(&s, "exactly22charslong....", 22);
  CHECK_EQ_INT(TF_StringGetType(&s), TF_TSTR_SMALL);
  CHECK_EQ_SIZE(TF_StringGetSize(&s), 22);
  TF_StringCopy(&s, "exactly23charslong.....", 23);
  CHECK_EQ_INT(TF_StringGetType(&s), TF_TSTR_LARGE);
  CHECK_EQ_SIZE(TF_StringGetSize(&s), 23);
  TF_StringCopy(&s, "", 0);
  CHECK_EQ_INT(TF_StringGetType(&s), TF_TSTR_SMALL);
  CHECK_EQ_SIZE(TF_StringGetSize(&s), 0);
  CHECK_STR_EQ(TF_StringGetDataPointer(&s), "");
  TF_StringDealloc(&s);
}

TEST(every_size_from_0_to_64_round_trips) {
  char src[65];
  TF_TString s;
  for (int i = 0; i < 65; i++) src[i] = (char)('A' + i % 26);
  TF_TString_Init(&s);
  for (size_t n = 0; n <= 64; n++) {
    TF_TString_Copy(&s, src, n);
    CHECK_TSTR(&s, src, n);
    check_owned(&s);
    CHECK_EQ_INT(TF_TString_GetType(&s),
                 n <= 22 ? TF_TSTR_SMALL : TF_TSTR_LARGE);
  }
  /* And back down again. */
  for (size_t n = 64; n-- > 0;) {
    TF_TString_Copy(&s, src, n);
    CHECK_TSTR(&s, src, n);
    check_owned(&s);
  }
  TF_TString_Dealloc(&s);
}

TEST(embedded_nuls_are_kept) {
  TF_TString s;
  TF_StringInit(&s);
  TF_StringCopy(&s, "a\0b", 3);
  CHECK_EQ_SIZE(TF_StringGetSize(&s), 3);
  CHECK(memcmp(TF_StringGetDataPointer(&s), "a\0b", 4) == 0);
  {
    char big[40];
    memset(big, 0, sizeof big);
    big[39] = 'z';
    TF_StringCopy(&s, big, 40);
    CHECK_EQ_SIZE(TF_StringGetSize(&s), 40);
    CHECK_EQ_INT(TF_StringGetDataPointer(&s)[0], 0);
    CHECK_EQ_INT(TF_StringGetDataPointer(&s)[39], 'z');
  }
  TF_StringDealloc(&s);
}

TEST(zero_and_megabyte_strings) {
  const size_t mb = (size_t)1 << 20;
  char* big = (char*)malloc(mb);
  TF_TString s, e;
  for (size_t i = 0; i < mb; i++) big[i] = (char)(i * 31 + 7);
  TF_TString_Init(&e);
  TF_TString_Copy(&e, big, 0);
  CHECK_EQ_SIZE(TF_TString_GetSize(&e), 0);
  check_owned(&e);

  TF_TString_Init(&s);
  TF_TString_Copy(&s, big, mb);
  CHECK_EQ_INT(TF_TString_GetType(&s), TF_TSTR_LARGE);
  CHECK_TSTR(&s, big, mb);
  check_owned(&s);
  TF_TString_Dealloc(&s);

  TF_StringInit(&s);
  TF_StringCopy(&s, big, mb);
  CHECK_EQ_SIZE(TF_StringGetSize(&s), mb);
  CHECK(TF_StringGetCapacity(&s) >= mb);
  CHECK(memcmp(TF_StringGetDataPointer(&s), big, mb) == 0);
  CHECK_EQ_INT(TF_StringGetDataPointer(&s)[mb], '\0');
  TF_StringDealloc(&s);
  CHECK_EQ_SIZE(TF_StringGetSize(&s), 0);
  free(big);
}

/* ---- views ------------------------------------------------------------ */

TEST(view_refers_to_caller_bytes) {
  static const char viewed[] = "viewed bytes";
  TF_TString s;
  TF_StringInit(&s);
  TF_StringAssignView(&s, viewed, 6);
  CHECK_EQ_INT(TF_StringGetType(&s), TF_TSTR_VIEW);
  CHECK_EQ_INT(TF_StringGetType(&s), 3);
  CHECK_EQ_SIZE(TF_StringGetSize(&s), 6);
  CHECK(TF_StringGetDataPointer(&s) == viewed);
  CHECK_EQ_SIZE(TF_StringGetCapacity(&s), 0);
  /* Dealloc of a view frees nothing and empties it. */
  TF_StringDealloc(&s);
  CHECK_EQ_SIZE(TF_StringGetSize(&s), 0);
  CHECK_EQ_INT(TF_StringGetType(&s), TF_TSTR_SMALL);
  CHECK_STR_EQ(viewed, "viewed bytes");

  /* A view of more than 22 bytes is still a view. */
  {
    static const char long_text[] = "a long text that does not fit inline at all";
    TF_TString_Init(&s);
    TF_TString_AssignView(&s, long_text, sizeof long_text - 1);
    CHECK_EQ_INT(TF_TString_GetType(&s), TF_TSTR_VIEW);
    CHECK(TF_TString_GetDataPointer(&s) == long_text);
    CHECK_EQ_SIZE(TF_TString_GetSize(&s), sizeof long_text - 1);
    TF_TString_Dealloc(&s);
  }
}

TEST(assign_view_frees_owned_buffer) {
  static const char viewed[] = "xyz";
  TF_TString s;
  TF_TString_Init(&s);
  TF_TString_Copy(&s, "owned heap bytes owned heap bytes", 33);
  CHECK_EQ_INT(TF_TString_GetType(&s), TF_TSTR_LARGE);
  TF_TString_AssignView(&s, viewed, 3); /* leak would show under ASan */
  CHECK_EQ_INT(TF_TString_GetType(&s), TF_TSTR_VIEW);
  CHECK(TF_TString_GetDataPointer(&s) == viewed);
  /* Copy into a view replaces it with owned bytes, source untouched. */
  TF_TString_Copy(&s, "new", 3);
  CHECK_EQ_INT(TF_TString_GetType(&s), TF_TSTR_SMALL);
  CHECK_TSTR(&s, "new", 3);
  CHECK_STR_EQ(viewed, "xyz");
  TF_TString_Dealloc(&s);
}

TEST(mutable_pointer_on_view_takes_ownership) {
  char source[] = "borrowed";
  char long_source[] = "borrowed bytes beyond the inline capacity";
  TF_TString s;
  char* p;
  TF_TString_Init(&s);
  TF_TString_AssignView(&s, source, 8);
  p = TF_TString_GetMutableDataPointer(&s);
  CHECK(p != NULL);
  CHECK(p != source);
  CHECK_EQ_INT(TF_TString_GetType(&s), TF_TSTR_SMALL);
  CHECK_TSTR(&s, "borrowed", 8);
  check_owned(&s);
  p[0] = 'B';
  CHECK_STR_EQ(source, "borrowed");
  CHECK_TSTR(&s, "Borrowed", 8);

  TF_TString_AssignView(&s, long_source, strlen(long_source));
  p = TF_TString_GetMutableDataPointer(&s);
  CHECK(p != long_source);
  CHECK_EQ_INT(TF_TString_GetType(&s), TF_TSTR_LARGE);
  CHECK_TSTR(&s, long_source, strlen(long_source));
  check_owned(&s);
  p[0] = 'X';
  CHECK_EQ_INT(long_source[0], 'b');
  TF_TString_Dealloc(&s);

  /* On owned strings it returns the current storage. */
  TF_TString_Copy(&s, "abc", 3);
  CHECK(TF_TString_GetMutableDataPointer(&s) == s.u.smll.str);
  TF_TString_Dealloc(&s);
}

/* ---- offset strings --------------------------------------------------- */

TEST(offset_string_reads) {
  offset_string o;
  make_offset(&o, "offset!", 7);
  CHECK_EQ_INT(TF_TString_GetType(&o.str), TF_TSTR_OFFSET);
  CHECK_EQ_INT(TF_StringGetType(&o.str), TF_TSTR_OFFSET);
  CHECK_EQ_SIZE(TF_TString_GetSize(&o.str), 7);
  CHECK_EQ_SIZE(TF_StringGetSize(&o.str), 7);
  CHECK(TF_TString_GetDataPointer(&o.str) == o.bytes);
  CHECK(TF_StringGetDataPointer(&o.str) == o.bytes);
  CHECK_EQ_SIZE(TF_TString_GetCapacity(&o.str), 0);
  CHECK(memcmp(TF_StringGetDataPointer(&o.str), "offset!", 7) == 0);
}

TEST(offset_string_copy_and_move_convert_it) {
  offset_string o;
  TF_TString dst;

  /* Copying out of it. */
  make_offset(&o, "offset bytes", 12);
  TF_TString_Init(&dst);
  TF_TString_Assign(&dst, &o.str);
  CHECK_EQ_INT(TF_TString_GetType(&dst), TF_TSTR_SMALL);
  CHECK_TSTR(&dst, "offset bytes", 12);
  check_owned(&dst);

  /* Moving out of it: dst gets its own copy, src becomes empty. */
  TF_TString_Copy(&dst, "a previous large value in dst!!!", 32);
  TF_TString_Move(&dst, &o.str);
  CHECK_TSTR(&dst, "offset bytes", 12);
  check_owned(&dst);
  CHECK_EQ_SIZE(TF_TString_GetSize(&o.str), 0);
  CHECK_EQ_INT(TF_TString_GetType(&o.str), TF_TSTR_SMALL);
  CHECK(memcmp(o.bytes, "offset bytes", 12) == 0);
  TF_TString_Dealloc(&dst);

  /* Copying into it makes it owned; the trailing bytes stay. */
  make_offset(&o, "offset bytes", 12);
  TF_TString_Copy(&o.str, "0123456789012345678901234567", 28);
  CHECK_EQ_INT(TF_TString_GetType(&o.str), TF_TSTR_LARGE);
  CHECK_TSTR(&o.str, "0123456789012345678901234567", 28);
  CHECK(memcmp(o.bytes, "offset bytes", 12) == 0);
  TF_TString_Dealloc(&o.str);

  make_offset(&o, "offset bytes", 12);
  TF_StringCopy(&o.str, "xy", 2);
  CHECK_EQ_INT(TF_StringGetType(&o.str), TF_TSTR_SMALL);
  CHECK_EQ_SIZE(TF_StringGetSize(&o.str), 2);
  CHECK(memcmp(o.bytes, "offset bytes", 12) == 0);
  TF_StringDealloc(&o.str);
}

TEST(offset_string_mutable_and_dealloc) {
  offset_string o;
  char* p;
  make_offset(&o, "mutate me", 9);
  p = TF_TString_GetMutableDataPointer(&o.str);
  CHECK(p != NULL);
  CHECK(p != o.bytes);
  CHECK_EQ_INT(TF_TString_GetType(&o.str), TF_TSTR_SMALL);
  p[0] = 'M';
  CHECK_TSTR(&o.str, "Mutate me", 9);
  CHECK(memcmp(o.bytes, "mutate me", 9) == 0);
  TF_TString_Dealloc(&o.str);

  /* Dealloc of an offset string frees nothing. */
  make_offset(&o, "abc", 3);
  TF_StringDealloc(&o.str);
  CHECK_EQ_SIZE(TF_StringGetSize(&o.str), 0);
  CHECK(memcmp(o.bytes, "abc", 3) == 0);

  /* Appending to an offset string copies it first. */
  make_offset(&o, "abc", 3);
  TF_TString_AppendN(&o.str, "def", 3);
  CHECK_TSTR(&o.str, "abcdef", 6);
  check_owned(&o.str);
  CHECK(memcmp(o.bytes, "abc\0", 4) == 0);
  TF_TString_Dealloc(&o.str);
}

/* Copy's source may be the string's own bytes (it is documented as a copy
 * of src[0, size) and implemented with memmove): taking a substring of
 * itself must work for every kind of string. */
TEST(copy_from_own_bytes_small) {
  TF_TString s;
  TF_TString_Init(&s);
  TF_TString_Copy(&s, "abcdefgh", 8);
  TF_TString_Copy(&s, TF_TString_GetDataPointer(&s) + 2, 6);
  CHECK_TSTR(&s, "cdefgh", 6);
  check_owned(&s);
  TF_TString_Copy(&s, TF_TString_GetDataPointer(&s), 3); /* a prefix */
  CHECK_TSTR(&s, "cde", 3);
  TF_TString_Dealloc(&s);
}

TEST(copy_from_own_bytes_large_to_large) {
  const char* text = "0123456789abcdefghijklmnopqrstuvwxyzABCD"; /* 40 */
  TF_TString s;
  TF_TString_Init(&s);
  TF_TString_Copy(&s, text, 40);
  TF_TString_Copy(&s, TF_TString_GetDataPointer(&s) + 10, 30);
  CHECK_EQ_INT(TF_TString_GetType(&s), TF_TSTR_LARGE);
  CHECK_TSTR(&s, text + 10, 30);
  check_owned(&s);
  TF_TString_Dealloc(&s);
}

TEST(copy_from_own_bytes_large_to_small) {
  const char* text = "0123456789abcdefghijklmnopqrstuvwxyzABCD"; /* 40 */
  TF_TString s;
  TF_TString_Init(&s);
  TF_TString_Copy(&s, text, 40);
  /* Shrinking into inline storage releases the heap buffer: the bytes
   * must be taken out of it first. */
  TF_TString_Copy(&s, TF_TString_GetDataPointer(&s), 5);
  CHECK_EQ_INT(TF_TString_GetType(&s), TF_TSTR_SMALL);
  CHECK_TSTR(&s, "01234", 5);
  TF_TString_Copy(&s, text, 40);
  TF_TString_Copy(&s, TF_TString_GetDataPointer(&s) + 30, 10);
  CHECK_TSTR(&s, "uvwxyzABCD", 10);
  check_owned(&s);
  TF_TString_Dealloc(&s);

  /* The same through the exported function. */
  TF_StringInit(&s);
  TF_StringCopy(&s, text, 40);
  TF_StringCopy(&s, TF_StringGetDataPointer(&s) + 1, 4);
  CHECK_EQ_SIZE(TF_StringGetSize(&s), 4);
  CHECK(memcmp(TF_StringGetDataPointer(&s), "1234", 4) == 0);
  TF_StringDealloc(&s);
}

/* ---- append ----------------------------------------------------------- */

TEST(append_and_append_n) {
  TF_TString a, b;
  TF_TString_Init(&a);
  TF_TString_Init(&b);
  TF_TString_Copy(&a, "abc", 3);
  TF_TString_AppendN(&a, "def", 3);
  CHECK_TSTR(&a, "abcdef", 6);
  check_owned(&a);
  TF_TString_AppendN(&a, "ignored", 0);
  CHECK_TSTR(&a, "abcdef", 6);

  TF_TString_Copy(&b, "-0123456789abcdefghij", 21);
  TF_TString_Append(&a, &b); /* crosses into LARGE */
  CHECK_EQ_INT(TF_TString_GetType(&a), TF_TSTR_LARGE);
  CHECK_TSTR(&a, "abcdef-0123456789abcdefghij", 27);
  check_owned(&a);
  CHECK_TSTR(&b, "-0123456789abcdefghij", 21);

  /* Many small appends. */
  for (int i = 0; i < 1000; i++) TF_TString_AppendN(&a, "xy", 2);
  CHECK_EQ_SIZE(TF_TString_GetSize(&a), 27 + 2000);
  CHECK_EQ_INT(TF_TString_GetDataPointer(&a)[2026], 'y');
  check_owned(&a);

  /* Appending a view of another string. */
  {
    static const char v[] = "VIEW";
    TF_TString_AssignView(&b, v, 4);
    TF_TString_Copy(&a, "x", 1);
    TF_TString_Append(&a, &b);
    CHECK_TSTR(&a, "xVIEW", 5);
  }
  /* Appending to a view: it becomes owned, viewed bytes untouched. */
  {
    static const char v2[] = "head";
    TF_TString_AssignView(&b, v2, 4);
    TF_TString_AppendN(&b, "-tail", 5);
    CHECK_TSTR(&b, "head-tail", 9);
    check_owned(&b);
    CHECK_STR_EQ(v2, "head");
  }
  TF_TString_Dealloc(&a);
  TF_TString_Dealloc(&b);
}

TEST(append_own_bytes_small) {
  TF_TString s;
  TF_TString_Init(&s);
  TF_TString_Copy(&s, "abcdef", 6);
  TF_TString_AppendN(&s, TF_TString_GetDataPointer(&s), 6);
  CHECK_TSTR(&s, "abcdefabcdef", 12);
  check_owned(&s);
  /* A tail of itself. */
  TF_TString_AppendN(&s, TF_TString_GetDataPointer(&s) + 9, 3);
  CHECK_TSTR(&s, "abcdefabcdefdef", 15);
  TF_TString_Dealloc(&s);
}

TEST(append_own_bytes_small_to_large) {
  TF_TString s;
  TF_TString_Init(&s);
  TF_TString_Copy(&s, "01234567890123456789", 20);
  TF_TString_Append(&s, &s);
  CHECK_EQ_INT(TF_TString_GetType(&s), TF_TSTR_LARGE);
  CHECK_TSTR(&s, "0123456789012345678901234567890123456789", 40);
  check_owned(&s);
  TF_TString_Dealloc(&s);
}

TEST(append_own_bytes_large_with_realloc) {
  char want[4 * 100];
  TF_TString s;
  for (int i = 0; i < 100; i++) want[i] = (char)('a' + i % 26);
  TF_TString_Init(&s);
  TF_TString_Copy(&s, want, 100);
  for (int round = 1; round <= 2; round++) {
    size_t n = TF_TString_GetSize(&s);
    memcpy(want + n, want, n);
    /* Growing reallocates the buffer the source points into. */
    TF_TString_AppendN(&s, TF_TString_GetDataPointer(&s), n);
    CHECK_TSTR(&s, want, 2 * n);
    check_owned(&s);
  }
  CHECK_EQ_SIZE(TF_TString_GetSize(&s), 400);
  TF_TString_Dealloc(&s);
}

TEST(append_own_bytes_of_a_view) {
  static const char text[] = "hello";
  TF_TString s;
  TF_TString_Init(&s);
  TF_TString_AssignView(&s, text, 5);
  TF_TString_AppendN(&s, TF_TString_GetDataPointer(&s), 5);
  CHECK_TSTR(&s, "hellohello", 10);
  check_owned(&s);
  CHECK_STR_EQ(text, "hello");
  TF_TString_Dealloc(&s);
}

/* ---- resize / reserve ------------------------------------------------- */

TEST(resize_fills_and_truncates) {
  TF_TString s;
  char* p;
  TF_TString_Init(&s);
  TF_TString_Copy(&s, "ab", 2);
  p = TF_TString_Resize(&s, 5, 'x');
  CHECK(p != NULL);
  CHECK_TSTR(&s, "abxxx", 5);
  check_owned(&s);
  p = TF_TString_Resize(&s, 1, 'y');
  CHECK_TSTR(&s, "a", 1);
  check_owned(&s);
  p = TF_TString_Resize(&s, 40, 'z');
  CHECK(p == TF_TString_GetDataPointer(&s));
  CHECK_EQ_INT(TF_TString_GetType(&s), TF_TSTR_LARGE);
  CHECK_EQ_SIZE(TF_TString_GetSize(&s), 40);
  CHECK_EQ_INT(p[0], 'a');
  for (int i = 1; i < 40; i++) CHECK_EQ_INT(p[i], 'z');
  check_owned(&s);
  /* Shrinking within the LARGE range keeps the buffer. */
  {
    const char* before = TF_TString_GetDataPointer(&s);
    TF_TString_Resize(&s, 30, '?');
    CHECK(TF_TString_GetDataPointer(&s) == before);
    CHECK_EQ_SIZE(TF_TString_GetSize(&s), 30);
    check_owned(&s);
  }
  /* Back down into inline storage. */
  TF_TString_Resize(&s, 3, '?');
  CHECK_EQ_INT(TF_TString_GetType(&s), TF_TSTR_SMALL);
  CHECK_TSTR(&s, "azz", 3);
  check_owned(&s);
  TF_TString_Resize(&s, 0, '?');
  CHECK_EQ_SIZE(TF_TString_GetSize(&s), 0);
  check_owned(&s);
  TF_TString_Dealloc(&s);
}

TEST(resize_uninitialized_keeps_prefix) {
  TF_TString s;
  char* p;
  TF_TString_Init(&s);
  TF_TString_Copy(&s, "prefix", 6);
  p = TF_TString_ResizeUninitialized(&s, 100);
  CHECK(p != NULL);
  CHECK(memcmp(p, "prefix", 6) == 0);
  CHECK_EQ_SIZE(TF_TString_GetSize(&s), 100);
  check_owned(&s);
  memset(p + 6, '-', 94);
  TF_TString_Dealloc(&s);
}

TEST(resize_a_view_copies_it) {
  static const char text[] = "view text";
  TF_TString s;
  TF_TString_Init(&s);
  TF_TString_AssignView(&s, text, 9);
  TF_TString_Resize(&s, 4, '!');
  CHECK_TSTR(&s, "view", 4);
  check_owned(&s);
  TF_TString_AssignView(&s, text, 9);
  TF_TString_Resize(&s, 30, '!');
  CHECK_TSTR(&s, "view text!!!!!!!!!!!!!!!!!!!!!", 30);
  check_owned(&s);
  CHECK_STR_EQ(text, "view text");
  TF_TString_Dealloc(&s);
}

TEST(reserve_grows_capacity_only) {
  TF_TString s;
  const char* p;
  TF_TString_Init(&s);
  TF_TString_Copy(&s, "abc", 3);
  TF_TString_Reserve(&s, 10); /* fits inline: nothing changes */
  CHECK_EQ_INT(TF_TString_GetType(&s), TF_TSTR_SMALL);
  CHECK_EQ_SIZE(TF_TString_GetCapacity(&s), 22);

  TF_TString_Reserve(&s, 100);
  CHECK_EQ_INT(TF_TString_GetType(&s), TF_TSTR_LARGE);
  CHECK(TF_TString_GetCapacity(&s) >= 100);
  CHECK_TSTR(&s, "abc", 3);
  check_owned(&s);
  p = TF_TString_GetDataPointer(&s);

  /* No reallocation while the capacity suffices. */
  TF_TString_Reserve(&s, 50);
  CHECK(TF_TString_GetDataPointer(&s) == p);
  TF_TString_AppendN(&s, "0123456789012345678901234567890123456789", 40);
  CHECK(TF_TString_GetDataPointer(&s) == p);
  CHECK_EQ_SIZE(TF_TString_GetSize(&s), 43);
  check_owned(&s);

  /* Reserving on an empty string. */
  TF_TString_Dealloc(&s);
  TF_TString_Reserve(&s, 64);
  CHECK_EQ_SIZE(TF_TString_GetSize(&s), 0);
  CHECK(TF_TString_GetCapacity(&s) >= 64);
  check_owned(&s);
  TF_TString_Dealloc(&s);

  /* Reserving on a view takes ownership of its bytes. */
  {
    static const char text[] = "viewed";
    TF_TString_AssignView(&s, text, 6);
    TF_TString_Reserve(&s, 200);
    CHECK_EQ_INT(TF_TString_GetType(&s), TF_TSTR_LARGE);
    CHECK_TSTR(&s, "viewed", 6);
    CHECK(TF_TString_GetCapacity(&s) >= 200);
    check_owned(&s);
    TF_TString_Dealloc(&s);
  }
}

TEST(reserve_amortized_grows_geometrically) {
  TF_TString s;
  size_t cap;
  TF_TString_Init(&s);
  TF_TString_Copy(&s, "0123456789012345678901234567890123456789", 40);
  cap = TF_TString_GetCapacity(&s);
  TF_TString_ReserveAmortized(&s, cap + 1);
  CHECK(TF_TString_GetCapacity(&s) >= 2 * cap);
  CHECK_TSTR(&s, "0123456789012345678901234567890123456789", 40);
  check_owned(&s);
  /* A request beyond twice the capacity is honoured exactly or more. */
  cap = TF_TString_GetCapacity(&s);
  TF_TString_ReserveAmortized(&s, 10 * cap);
  CHECK(TF_TString_GetCapacity(&s) >= 10 * cap);
  /* A request below the capacity changes nothing. */
  {
    const char* p = TF_TString_GetDataPointer(&s);
    cap = TF_TString_GetCapacity(&s);
    TF_TString_ReserveAmortized(&s, 5);
    CHECK(TF_TString_GetDataPointer(&s) == p);
    CHECK_EQ_SIZE(TF_TString_GetCapacity(&s), cap);
  }
  TF_TString_Dealloc(&s);

  /* From SMALL: capacity 22 grows to at least 44. */
  TF_TString_Copy(&s, "x", 1);
  TF_TString_ReserveAmortized(&s, 23);
  CHECK(TF_TString_GetCapacity(&s) >= 44);
  CHECK_TSTR(&s, "x", 1);
  TF_TString_Dealloc(&s);
}

/* ---- assign / move / dealloc ------------------------------------------ */

TEST(assign_copies_owned_and_keeps_views) {
  static const char text[] = "some viewed text";
  TF_TString src, dst;
  TF_TString_Init(&src);
  TF_TString_Init(&dst);

  TF_TString_Copy(&src, "small", 5);
  TF_TString_Assign(&dst, &src);
  CHECK_EQ_INT(TF_TString_GetType(&dst), TF_TSTR_SMALL);
  CHECK_TSTR(&dst, "small", 5);

  TF_TString_Copy(&src, "a large source string, 33 bytes..", 33);
  TF_TString_Assign(&dst, &src);
  CHECK_EQ_INT(TF_TString_GetType(&dst), TF_TSTR_LARGE);
  CHECK_TSTR(&dst, "a large source string, 33 bytes..", 33);
  CHECK(TF_TString_GetDataPointer(&dst) != TF_TString_GetDataPointer(&src));
  check_owned(&dst);

  /* A view stays a view of the same bytes (dst's heap buffer freed). */
  TF_TString_AssignView(&src, text, 16);
  TF_TString_Assign(&dst, &src);
  CHECK_EQ_INT(TF_TString_GetType(&dst), TF_TSTR_VIEW);
  CHECK(TF_TString_GetDataPointer(&dst) == text);
  CHECK_EQ_SIZE(TF_TString_GetSize(&dst), 16);

  /* Self-assignment is a no-op. */
  TF_TString_Copy(&src, "self", 4);
  TF_TString_Assign(&src, &src);
  CHECK_TSTR(&src, "self", 4);

  TF_TString_Dealloc(&src);
  TF_TString_Dealloc(&dst);
}

TEST(move_steals_and_empties_source) {
  static const char text[] = "viewed";
  TF_TString src, dst;
  const char* heap;
  TF_TString_Init(&src);
  TF_TString_Init(&dst);

  TF_TString_Copy(&src, "a large string that lives on the heap", 37);
  heap = TF_TString_GetDataPointer(&src);
  TF_TString_Copy(&dst, "dst had its own large buffer to free", 36);
  TF_TString_Move(&dst, &src);
  CHECK(TF_TString_GetDataPointer(&dst) == heap);
  CHECK_TSTR(&dst, "a large string that lives on the heap", 37);
  CHECK_EQ_SIZE(TF_TString_GetSize(&src), 0);
  CHECK_EQ_INT(TF_TString_GetType(&src), TF_TSTR_SMALL);
  CHECK_STR_EQ(TF_TString_GetDataPointer(&src), "");

  TF_TString_Copy(&src, "tiny", 4);
  TF_TString_Move(&dst, &src);
  CHECK_EQ_INT(TF_TString_GetType(&dst), TF_TSTR_SMALL);
  CHECK_TSTR(&dst, "tiny", 4);
  CHECK_EQ_SIZE(TF_TString_GetSize(&src), 0);

  TF_TString_AssignView(&src, text, 6);
  TF_TString_Move(&dst, &src);
  CHECK_EQ_INT(TF_TString_GetType(&dst), TF_TSTR_VIEW);
  CHECK(TF_TString_GetDataPointer(&dst) == text);
  CHECK_EQ_SIZE(TF_TString_GetSize(&src), 0);

  /* Moving onto itself keeps the contents. */
  TF_TString_Copy(&dst, "keep me keep me keep me keep me", 31);
  TF_TString_Move(&dst, &dst);
  CHECK_TSTR(&dst, "keep me keep me keep me keep me", 31);

  TF_TString_Dealloc(&src);
  TF_TString_Dealloc(&dst);
}

TEST(dealloc_empties_every_kind) {
  TF_TString s;
  TF_TString_Init(&s);
  TF_TString_Copy(&s, "heap heap heap heap heap heap", 29);
  TF_TString_Dealloc(&s);
  CHECK_EQ_INT(TF_TString_GetType(&s), TF_TSTR_SMALL);
  CHECK_EQ_SIZE(TF_TString_GetSize(&s), 0);
  /* Twice in a row is fine. */
  TF_TString_Dealloc(&s);
  TF_StringDealloc(&s);
  CHECK_EQ_SIZE(TF_StringGetSize(&s), 0);
  TF_TString_Copy(&s, "inline", 6);
  TF_StringDealloc(&s);
  CHECK_EQ_SIZE(TF_StringGetSize(&s), 0);
}

/* ---- exported family: NULL handling ------------------------------------ */

TEST(exported_functions_accept_null) {
  TF_TString s;
  TF_StringInit(NULL);
  TF_StringCopy(NULL, "abc", 3);
  TF_StringAssignView(NULL, "abc", 3);
  TF_StringDealloc(NULL);
  CHECK(TF_StringGetDataPointer(NULL) == NULL);
  CHECK_EQ_SIZE(TF_StringGetSize(NULL), 0);
  CHECK_EQ_SIZE(TF_StringGetCapacity(NULL), 0);
  CHECK_EQ_INT(TF_StringGetType(NULL), TF_TSTR_SMALL);

  /* A NULL source with a size is ignored; the string keeps its value. */
  TF_StringInit(&s);
  TF_StringCopy(&s, "keep", 4);
  TF_StringCopy(&s, NULL, 5);
  CHECK_EQ_SIZE(TF_StringGetSize(&s), 4);
  CHECK_STR_EQ(TF_StringGetDataPointer(&s), "keep");
  TF_StringAssignView(&s, NULL, 5);
  CHECK_EQ_INT(TF_StringGetType(&s), TF_TSTR_SMALL);
  CHECK_STR_EQ(TF_StringGetDataPointer(&s), "keep");

  /* A NULL source with size 0 is simply the empty string. */
  TF_StringCopy(&s, NULL, 0);
  CHECK_EQ_SIZE(TF_StringGetSize(&s), 0);
  TF_StringAssignView(&s, NULL, 0);
  CHECK_EQ_INT(TF_StringGetType(&s), TF_TSTR_VIEW);
  CHECK_EQ_SIZE(TF_StringGetSize(&s), 0);
  TF_StringDealloc(&s);
}

TEST(exported_and_inline_agree) {
  TF_TString a, b;
  const char* txt = "shared between both families of functions";
  TF_StringInit(&a);
  TF_TString_Init(&b);
  TF_StringCopy(&a, txt, strlen(txt));
  TF_TString_Copy(&b, txt, strlen(txt));
  CHECK_EQ_INT(TF_StringGetType(&a), TF_TString_GetType(&b));
  CHECK_EQ_SIZE(TF_StringGetSize(&a), TF_TString_GetSize(&b));
  CHECK_EQ_SIZE(TF_StringGetCapacity(&a), TF_TString_GetCapacity(&b));
  CHECK(memcmp(TF_StringGetDataPointer(&a), TF_TString_GetDataPointer(&b),
               strlen(txt)) == 0);
  /* Memory from one family may be released by the other. */
  TF_TString_Dealloc(&a);
  TF_StringDealloc(&b);
}

/* ---- views with an owner (TStringOwnerCApi) ---------------------------- */

/* A heap buffer shared through a reference count; freed by the last unref. */
typedef struct {
  TStringOwnerCApi api; /* first: the strings hand back &api */
  int refs;
  int unrefs;
  int freed;
  char* bytes;
} test_owner;

static void owner_ref(TStringOwnerCApi* self) {
  test_owner* o = (test_owner*)self->obj;
  o->refs++;
}

static bool owner_unref(TStringOwnerCApi* self) {
  test_owner* o = (test_owner*)self->obj;
  o->unrefs++;
  if (o->refs - o->unrefs == 0) {
    free(o->bytes);
    o->bytes = NULL;
    o->freed = 1;
    return true;
  }
  return false;
}

/* An owner of a copy of text, holding one reference of its creator. */
static void owner_init(test_owner* o, const char* text) {
  memset(o, 0, sizeof *o);
  o->api.ref = owner_ref;
  o->api.unref = owner_unref;
  o->api.obj = o;
  o->refs = 1;
  o->bytes = (char*)malloc(strlen(text) + 1);
  memcpy(o->bytes, text, strlen(text) + 1);
}

/* The creator's reference goes; the strings' references keep the bytes. */
static void owner_drop_creator(test_owner* o) { o->api.unref(&o->api); }

static int owner_live(const test_owner* o) { return o->refs - o->unrefs; }

TEST(view_with_owner_holds_one_reference) {
  test_owner o;
  TF_TString s;
  owner_init(&o, "owned by someone else entirely");
  TF_TString_Init(&s);
  TF_TString_AssignViewWithOwner(&s, o.bytes, 5, &o.api);
  CHECK_EQ_INT(TF_TString_GetType(&s), TF_TSTR_VIEW);
  CHECK(s.u.view.owner_ref == &o.api);
  CHECK(TF_TString_GetDataPointer(&s) == o.bytes);
  CHECK_EQ_SIZE(TF_TString_GetSize(&s), 5);
  CHECK_EQ_SIZE(TF_TString_GetCapacity(&s), 0);
  CHECK_EQ_INT(owner_live(&o), 2);
  /* The string alone keeps the bytes alive now. */
  owner_drop_creator(&o);
  CHECK_EQ_INT(o.freed, 0);
  CHECK_TSTR(&s, "owned", 5);
  TF_TString_Dealloc(&s);
  CHECK_EQ_INT(o.freed, 1);
  CHECK_EQ_INT(owner_live(&o), 0);
  CHECK_EQ_INT(TF_TString_GetType(&s), TF_TSTR_SMALL);
  CHECK_EQ_SIZE(TF_TString_GetSize(&s), 0);
}

TEST(plain_view_has_no_owner) {
  TF_TString s;
  const char* text = "borrowed";
  TF_TString_Init(&s);
  TF_TString_AssignView(&s, text, 8);
  CHECK(s.u.view.owner_ref == NULL);
  TF_TString_Dealloc(&s);
  /* A NULL owner is a plain view too. */
  TF_TString_AssignViewWithOwner(&s, text, 3, NULL);
  CHECK_EQ_INT(TF_TString_GetType(&s), TF_TSTR_VIEW);
  CHECK(s.u.view.owner_ref == NULL);
  CHECK_TSTR(&s, "bor", 3);
  TF_TString_Dealloc(&s);
}

TEST(reassigning_a_view_releases_the_old_owner) {
  test_owner a, b;
  TF_TString s;
  owner_init(&a, "first owner");
  owner_init(&b, "second owner");
  TF_TString_Init(&s);
  TF_TString_AssignViewWithOwner(&s, a.bytes, 5, &a.api);
  owner_drop_creator(&a);
  TF_TString_AssignViewWithOwner(&s, b.bytes, 6, &b.api);
  CHECK_EQ_INT(a.freed, 1);
  CHECK_EQ_INT(owner_live(&b), 2);
  /* The same owner again: the new reference is taken before the old one
   * goes, so the bytes never die in between. */
  owner_drop_creator(&b);
  TF_TString_AssignViewWithOwner(&s, b.bytes + 7, 5, &b.api);
  CHECK_EQ_INT(b.freed, 0);
  CHECK_EQ_INT(owner_live(&b), 1);
  CHECK_TSTR(&s, "owner", 5);
  /* A plain view replaces it and drops the reference. */
  TF_TString_AssignView(&s, "x", 1);
  CHECK_EQ_INT(b.freed, 1);
  TF_TString_Dealloc(&s);
}

TEST(copying_a_view_takes_a_reference_moving_hands_it_over) {
  test_owner o;
  TF_TString a, b, c;
  owner_init(&o, "shared bytes");
  TF_TString_Init(&a);
  TF_TString_Init(&b);
  TF_TString_Init(&c);
  TF_TString_AssignViewWithOwner(&a, o.bytes, 6, &o.api);
  owner_drop_creator(&o);
  TF_TString_Assign(&b, &a);
  CHECK_EQ_INT(TF_TString_GetType(&b), TF_TSTR_VIEW);
  CHECK(b.u.view.owner_ref == &o.api);
  CHECK_EQ_INT(owner_live(&o), 2);
  TF_TString_Move(&c, &b);
  CHECK_EQ_INT(owner_live(&o), 2);
  CHECK(c.u.view.owner_ref == &o.api);
  CHECK_EQ_INT(TF_TString_GetType(&b), TF_TSTR_SMALL);
  TF_TString_Dealloc(&b); /* empty: nothing to release */
  CHECK_EQ_INT(owner_live(&o), 2);
  TF_TString_Dealloc(&a);
  CHECK_EQ_INT(o.freed, 0);
  CHECK_TSTR(&c, "shared", 6);
  TF_TString_Dealloc(&c);
  CHECK_EQ_INT(o.freed, 1);
}

TEST(writing_through_an_owned_view_copies_then_releases) {
  static const char* long_text =
      "a view long enough that its copy needs a LARGE buffer";
  test_owner small_o, large_o, copy_o, reserve_o;
  TF_TString s;
  char* p;
  /* To SMALL through the mutable pointer. */
  owner_init(&small_o, "tiny");
  TF_TString_Init(&s);
  TF_TString_AssignViewWithOwner(&s, small_o.bytes, 4, &small_o.api);
  owner_drop_creator(&small_o);
  p = TF_TString_GetMutableDataPointer(&s);
  CHECK(p != NULL);
  CHECK_EQ_INT(small_o.freed, 1);
  check_owned(&s);
  CHECK_TSTR(&s, "tiny", 4);
  TF_TString_Dealloc(&s);
  /* To LARGE by growing. */
  owner_init(&large_o, long_text);
  TF_TString_AssignViewWithOwner(&s, large_o.bytes, strlen(long_text),
                                 &large_o.api);
  owner_drop_creator(&large_o);
  p = TF_TString_Resize(&s, strlen(long_text) + 2, '!');
  CHECK(p != NULL);
  CHECK_EQ_INT(large_o.freed, 1);
  check_owned(&s);
  CHECK(memcmp(p, long_text, strlen(long_text)) == 0);
  CHECK_EQ_INT(p[strlen(long_text) + 1], '!');
  TF_TString_Dealloc(&s);
  /* Copying the view's own bytes over it: read before the release. */
  owner_init(&copy_o, "copy of my own tail");
  TF_TString_AssignViewWithOwner(&s, copy_o.bytes, 19, &copy_o.api);
  owner_drop_creator(&copy_o);
  TF_TString_Copy(&s, TF_TString_GetDataPointer(&s) + 11, 8);
  CHECK_EQ_INT(copy_o.freed, 1);
  check_owned(&s);
  CHECK_TSTR(&s, "own tail", 8);
  TF_TString_Dealloc(&s);
  /* Reserve turns it into an owned LARGE string. */
  owner_init(&reserve_o, "reserve me");
  TF_TString_AssignViewWithOwner(&s, reserve_o.bytes, 10, &reserve_o.api);
  owner_drop_creator(&reserve_o);
  TF_TString_Reserve(&s, 100);
  CHECK_EQ_INT(reserve_o.freed, 1);
  CHECK_EQ_INT(TF_TString_GetType(&s), TF_TSTR_LARGE);
  CHECK(TF_TString_GetCapacity(&s) >= 100);
  CHECK_TSTR(&s, "reserve me", 10);
  TF_TString_Dealloc(&s);
}

TEST(exported_dealloc_releases_the_owner) {
  test_owner o;
  TF_TString s;
  owner_init(&o, "through TF_StringDealloc");
  TF_StringInit(&s);
  TF_TString_AssignViewWithOwner(&s, o.bytes, 7, &o.api);
  owner_drop_creator(&o);
  CHECK_EQ_SIZE(TF_StringGetSize(&s), 7);
  CHECK_EQ_INT(TF_StringGetType(&s), TF_TSTR_VIEW);
  TF_StringDealloc(&s);
  CHECK_EQ_INT(o.freed, 1);
}

TFE_TEST_MAIN
