/* tfe: TF_TString, TensorFlow's 24-byte string representation.
 *
 * Layout (fixed by TensorFlow's ABI; TF_STRING tensors are arrays of it):
 * the low two bits of the first byte select the kind of string.
 *   SMALL  (0)  up to 22 bytes stored inline, NUL-terminated; first byte is
 *               (size << 2) | 0.
 *   LARGE  (1)  heap buffer owned by the string: {size<<2|1, capacity, ptr}.
 *   OFFSET (2)  bytes that live at a fixed offset from the string itself:
 *               {uint32 size<<2|2, uint32 offset, uint32 count}.
 *   VIEW   (3)  bytes owned by someone else: {size<<2|3, ptr, owner_ref}.
 *               owner_ref is NULL for a plain view; otherwise it is a
 *               reference-counted owner of the bytes (TStringOwnerCApi):
 *               the string holds one reference, taken when it becomes the
 *               view (TF_TString_AssignViewWithOwner, or copying a view
 *               with TF_TString_Assign) and dropped when it stops being one
 *               (Dealloc, a resize or write that copies the bytes, another
 *               assignment). A move hands the reference over.
 * A string that is all zero bytes is a valid empty SMALL string.
 *
 * The functions below are inline so that plugins can use them without a
 * library call; libtfe also exports the TF_String* family (tf_tstring.h).
 * LARGE buffers come from malloc and go back to free. Writing through a
 * VIEW or OFFSET string first copies its bytes into memory the string owns.
 * Only little-endian targets are supported. */
#ifndef TENSORFLOW_TSL_PLATFORM_CTSTRING_INTERNAL_H_
#define TENSORFLOW_TSL_PLATFORM_CTSTRING_INTERNAL_H_

#ifndef __cplusplus
#include <stdbool.h>
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "tfe's TF_TString supports little-endian targets only"
#endif

/* Small helpers TF's header also defines (same names and types), so code
 * written against TF's header that calls them compiles unchanged. */
#ifndef TFE_CFFI_CDEF /* not part of tfe's binding */
static inline uint32_t TF_swap32(uint32_t host_int) {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_bswap32(host_int);
#else
  return (host_int >> 24) | ((host_int >> 8) & 0xFF00u) |
         ((host_int << 8) & 0xFF0000u) | (host_int << 24);
#endif
}
/* Rounds i up to a multiple of 16. */
static inline size_t TF_align16(size_t i) { return (i + 15) & ~(size_t)15; }
static inline size_t TF_max(size_t a, size_t b) { return a < b ? b : a; }
static inline size_t TF_min(size_t a, size_t b) { return b < a ? b : a; }
#endif /* TFE_CFFI_CDEF */

typedef enum TF_TString_Type {
  TF_TSTR_SMALL = 0x00,
  TF_TSTR_LARGE = 0x01,
  TF_TSTR_OFFSET = 0x02,
  TF_TSTR_VIEW = 0x03,
  TF_TSTR_TYPE_MASK = 0x03
} TF_TString_Type;

typedef struct TF_TString_Large {
  size_t size;
  size_t cap;
  char* ptr;
} TF_TString_Large;

typedef struct TF_TString_Offset {
  uint32_t size;
  uint32_t offset;
  uint32_t count;
} TF_TString_Offset;

/* A shared owner of the bytes a VIEW string points at: ref() takes one
 * reference, unref() drops one (and returns true when it was the last; the
 * strings ignore the result). `obj` is the owner's own data. */
struct TStringOwnerCApi;
typedef void (*tstring_owner_ref_t)(struct TStringOwnerCApi* self);
typedef bool (*tstring_owner_unref_t)(struct TStringOwnerCApi* self);

typedef struct TStringOwnerCApi {
  tstring_owner_ref_t ref;
  tstring_owner_unref_t unref;
  void* obj;
} TStringOwnerCApi;

typedef struct TF_TString_View {
  size_t size;
  const char* ptr;
  TStringOwnerCApi* owner_ref; /* NULL: the bytes are merely borrowed */
} TF_TString_View;

typedef struct TF_TString_Raw {
  uint8_t raw[24];
} TF_TString_Raw;

typedef union TF_TString_Union {
  TF_TString_Large large;
  TF_TString_Offset offset;
  TF_TString_View view;
  TF_TString_Raw raw;
} TF_TString_Union;

/* Inline capacity: 24 bytes less one size byte and one NUL byte. */
enum { TF_TString_SmallCapacity = 22 };

typedef struct TF_TString_Small {
  uint8_t size;
  char str[TF_TString_SmallCapacity + 1];
} TF_TString_Small;

typedef struct TF_TString {
  union {
    TF_TString_Small smll;
    TF_TString_Large large;
    TF_TString_Offset offset;
    TF_TString_View view;
    TF_TString_Raw raw;
  } u;
} TF_TString;

#define TF_TString_STATIC_INIT \
  { { { 0, { 0 } } } }

#ifndef TFE_CFFI_CDEF /* tfe's binding reads only the types above */

/* tfe: the largest size a string can have. The size is stored shifted
 * left by two bits (the low bits hold the type), so larger sizes cannot be
 * represented; any request beyond this limit fails (see the functions
 * below) instead of wrapping around. */
#define TF_TSTRING_MAX_SIZE ((size_t)-1 >> 2)

static inline TF_TString_Type TF_TString_GetType(const TF_TString* str) {
  return (TF_TString_Type)(str->u.raw.raw[0] & TF_TSTR_TYPE_MASK);
}

static inline size_t TF_TString_ToInternalSizeT(size_t size,
                                                TF_TString_Type type) {
  return (size << 2) | (size_t)type;
}

static inline size_t TF_TString_ToActualSizeT(size_t size) {
  return size >> 2;
}

static inline void TF_TString_Init(TF_TString* str) {
  memset(str->u.raw.raw, 0, sizeof(str->u.raw));
}

/* GCC's flow analysis cannot see that only LARGE strings reach free() and
 * warns when a string on the stack is inlined here; the warning is wrong. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wfree-nonheap-object"
#endif
static inline void TF_TString_Dealloc(TF_TString* str) {
  if (TF_TString_GetType(str) == TF_TSTR_LARGE && str->u.large.ptr != NULL) {
    free(str->u.large.ptr);
  } else if (TF_TString_GetType(str) == TF_TSTR_VIEW &&
             str->u.view.owner_ref != NULL) {
    (void)str->u.view.owner_ref->unref(str->u.view.owner_ref);
  }
  TF_TString_Init(str);
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

static inline size_t TF_TString_GetSize(const TF_TString* str) {
  switch (TF_TString_GetType(str)) {
    case TF_TSTR_SMALL:
      return (size_t)(str->u.smll.size >> 2);
    case TF_TSTR_LARGE:
      return TF_TString_ToActualSizeT(str->u.large.size);
    case TF_TSTR_OFFSET:
      return (size_t)(str->u.offset.size >> 2);
    case TF_TSTR_VIEW:
      return TF_TString_ToActualSizeT(str->u.view.size);
    default:
      return 0;
  }
}

static inline size_t TF_TString_GetCapacity(const TF_TString* str) {
  switch (TF_TString_GetType(str)) {
    case TF_TSTR_SMALL:
      return TF_TString_SmallCapacity;
    case TF_TSTR_LARGE:
      return str->u.large.cap;
    default:
      return 0; /* VIEW and OFFSET strings own no storage */
  }
}

static inline const char* TF_TString_GetDataPointer(const TF_TString* str) {
  switch (TF_TString_GetType(str)) {
    case TF_TSTR_SMALL:
      return str->u.smll.str;
    case TF_TSTR_LARGE:
      return str->u.large.ptr;
    case TF_TSTR_OFFSET:
      return (const char*)str + str->u.offset.offset;
    case TF_TSTR_VIEW:
      return str->u.view.ptr;
    default:
      return NULL;
  }
}

/* The owner a VIEW string holds a reference to, else NULL. */
static inline TStringOwnerCApi* TF_TString_ViewOwner(const TF_TString* str) {
  return TF_TString_GetType(str) == TF_TSTR_VIEW ? str->u.view.owner_ref
                                                 : NULL;
}

/* Drops the reference `owner` (may be NULL) after the string stopped being
 * its view. */
static inline void TF_TString_ReleaseOwner(TStringOwnerCApi* owner) {
  if (owner != NULL) (void)owner->unref(owner);
}

/* Capacity given to a LARGE buffer able to hold `need` bytes: the
 * allocation (capacity + NUL) is rounded up to a multiple of 16. `need`
 * must not exceed TF_TSTRING_MAX_SIZE (then nothing here can wrap). */
static inline size_t TF_TString_LargeCapacityFor(size_t need) {
  return ((need + 1 + 15) & ~(size_t)15) - 1;
}

/* Sets the size to new_size, keeping the first min(old, new) bytes and
 * leaving any new bytes uninitialised; the result is always NUL-terminated
 * and owned by the string. Returns the writable data pointer, or NULL when
 * new_size exceeds TF_TSTRING_MAX_SIZE or memory runs out; the string is
 * then unchanged. */
static inline char* TF_TString_ResizeUninitialized(TF_TString* str,
                                                   size_t new_size) {
  TF_TString_Type type = TF_TString_GetType(str);
  size_t old_size = TF_TString_GetSize(str);
  size_t keep = old_size < new_size ? old_size : new_size;
  const char* old_ptr = TF_TString_GetDataPointer(str);
  TStringOwnerCApi* owner = TF_TString_ViewOwner(str);

  if (new_size > TF_TSTRING_MAX_SIZE) return NULL;
  if (new_size <= TF_TString_SmallCapacity) {
    char tmp[TF_TString_SmallCapacity];
    char* old_heap = type == TF_TSTR_LARGE ? str->u.large.ptr : NULL;
    if (keep) memcpy(tmp, old_ptr, keep);
    if (old_heap) free(old_heap);
    TF_TString_ReleaseOwner(owner);
    str->u.smll.size = (uint8_t)(new_size << 2);
    if (keep) memcpy(str->u.smll.str, tmp, keep);
    str->u.smll.str[new_size] = '\0';
    return str->u.smll.str;
  }

  if (type == TF_TSTR_LARGE && new_size <= str->u.large.cap) {
    str->u.large.size = TF_TString_ToInternalSizeT(new_size, TF_TSTR_LARGE);
    str->u.large.ptr[new_size] = '\0';
    return str->u.large.ptr;
  }

  {
    size_t cap = TF_TString_LargeCapacityFor(new_size);
    char* buf;
    if (type == TF_TSTR_LARGE) {
      buf = (char*)realloc(str->u.large.ptr, cap + 1);
      if (buf == NULL) return NULL;
    } else {
      buf = (char*)malloc(cap + 1);
      if (buf == NULL) return NULL;
      if (keep) memcpy(buf, old_ptr, keep);
      TF_TString_ReleaseOwner(owner);
    }
    buf[new_size] = '\0';
    str->u.large.size = TF_TString_ToInternalSizeT(new_size, TF_TSTR_LARGE);
    str->u.large.cap = cap;
    str->u.large.ptr = buf;
    return buf;
  }
}

/* Returns a writable pointer to the bytes, first taking ownership of them
 * when the string is a VIEW or OFFSET. NULL when memory runs out. */
static inline char* TF_TString_GetMutableDataPointer(TF_TString* str) {
  switch (TF_TString_GetType(str)) {
    case TF_TSTR_SMALL:
      return str->u.smll.str;
    case TF_TSTR_LARGE:
      return str->u.large.ptr;
    default: {
      /* Copy the borrowed bytes into owned storage of the same size. */
      size_t n = TF_TString_GetSize(str);
      const char* src = TF_TString_GetDataPointer(str);
      TStringOwnerCApi* owner = TF_TString_ViewOwner(str);
      TF_TString tmp;
      char* dst;
      TF_TString_Init(&tmp);
      dst = TF_TString_ResizeUninitialized(&tmp, n);
      if (dst == NULL) return NULL;
      if (n) memcpy(dst, src, n);
      TF_TString_ReleaseOwner(owner);
      *str = tmp;
      return TF_TString_GetType(str) == TF_TSTR_LARGE ? str->u.large.ptr
                                                      : str->u.smll.str;
    }
  }
}

/* Makes sure at least new_cap bytes fit without another allocation (a
 * VIEW or OFFSET string also gets room for its current bytes, which it
 * then owns). Returns nothing, as in TF: when new_cap exceeds
 * TF_TSTRING_MAX_SIZE or memory runs out the string is left unchanged, and
 * the caller sees it from TF_TString_GetCapacity or from the NULL that the
 * next resize returns. */
static inline void TF_TString_Reserve(TF_TString* str, size_t new_cap) {
  TF_TString_Type type = TF_TString_GetType(str);
  size_t size = TF_TString_GetSize(str);
  if (new_cap > TF_TSTRING_MAX_SIZE) return;
  if (new_cap <= TF_TString_SmallCapacity) {
    if (type != TF_TSTR_SMALL && type != TF_TSTR_LARGE) {
      TF_TString_GetMutableDataPointer(str);
    }
    return;
  }
  if (type == TF_TSTR_LARGE && new_cap <= str->u.large.cap) return;
  {
    /* A VIEW or OFFSET may hold more bytes than new_cap asks for. */
    size_t cap = TF_TString_LargeCapacityFor(new_cap > size ? new_cap : size);
    const char* src = TF_TString_GetDataPointer(str);
    char* buf;
    if (type == TF_TSTR_LARGE) {
      buf = (char*)realloc(str->u.large.ptr, cap + 1);
      if (buf == NULL) return;
    } else {
      buf = (char*)malloc(cap + 1);
      if (buf == NULL) return;
      if (size) memcpy(buf, src, size);
      TF_TString_ReleaseOwner(TF_TString_ViewOwner(str));
    }
    buf[size] = '\0';
    str->u.large.size = TF_TString_ToInternalSizeT(size, TF_TSTR_LARGE);
    str->u.large.cap = cap;
    str->u.large.ptr = buf;
  }
}

/* Like TF_TString_Reserve, but grows geometrically so that repeated appends
 * take amortised constant time. */
static inline void TF_TString_ReserveAmortized(TF_TString* str,
                                               size_t new_cap) {
  size_t cur = TF_TString_GetCapacity(str);
  if (new_cap > cur) {
    /* cur <= TF_TSTRING_MAX_SIZE, so doubling cannot wrap. */
    size_t grown = cur * 2 + 1;
    TF_TString_Reserve(str, new_cap > grown ? new_cap : grown);
  }
}

/* Sets the size to new_size; added bytes are filled with c. */
static inline char* TF_TString_Resize(TF_TString* str, size_t new_size,
                                      char c) {
  size_t old_size = TF_TString_GetSize(str);
  char* p = TF_TString_ResizeUninitialized(str, new_size);
  if (p != NULL && new_size > old_size) {
    memset(p + old_size, c, new_size - old_size);
  }
  return p;
}

/* Makes the string a VIEW of src[0, size) whose bytes belong to
 * `owner_ref`: the string takes one reference (owner_ref->ref) and drops it
 * (owner_ref->unref) when it stops being that view, so the bytes live at
 * least as long as the view. With a NULL owner_ref the caller keeps src
 * alive instead. What the string held before is released after the new
 * reference is taken, so re-assigning a view of the same owner is safe.
 * A size above TF_TSTRING_MAX_SIZE cannot be a view: dst is left unchanged
 * and no reference is taken. */
static inline void TF_TString_AssignViewWithOwner(TF_TString* dst,
                                                  const char* src, size_t size,
                                                  TStringOwnerCApi* owner_ref) {
  if (size > TF_TSTRING_MAX_SIZE) return;
  if (owner_ref != NULL) owner_ref->ref(owner_ref);
  TF_TString_Dealloc(dst);
  dst->u.view.size = TF_TString_ToInternalSizeT(size, TF_TSTR_VIEW);
  dst->u.view.ptr = src;
  dst->u.view.owner_ref = owner_ref;
}

/* Makes the string a VIEW of src[0, size) with no owner: the caller keeps
 * src alive for as long as the string refers to it. Any owned buffer (or
 * owner reference) is released first. Sizes above TF_TSTRING_MAX_SIZE
 * leave dst unchanged. */
static inline void TF_TString_AssignView(TF_TString* dst, const char* src,
                                         size_t size) {
  TF_TString_AssignViewWithOwner(dst, src, size, NULL);
}

/* Appends src[0, src_size). src may point into the string itself. When
 * the result would exceed TF_TSTRING_MAX_SIZE or memory runs out, dst is
 * left unchanged. */
static inline void TF_TString_AppendN(TF_TString* dst, const char* src,
                                      size_t src_size) {
  size_t old_size;
  char* p;
  if (src_size == 0) return;
  old_size = TF_TString_GetSize(dst);
  if (src_size > TF_TSTRING_MAX_SIZE - old_size) return;
  {
    /* src may alias dst's own storage, which a reallocation would move. */
    const char* base = TF_TString_GetDataPointer(dst);
    if (base != NULL && src >= base && src < base + old_size) {
      size_t off = (size_t)(src - base);
      TF_TString_ReserveAmortized(dst, old_size + src_size);
      p = TF_TString_ResizeUninitialized(dst, old_size + src_size);
      if (p != NULL) memmove(p + old_size, p + off, src_size);
      return;
    }
  }
  TF_TString_ReserveAmortized(dst, old_size + src_size);
  p = TF_TString_ResizeUninitialized(dst, old_size + src_size);
  if (p != NULL) memcpy(p + old_size, src, src_size);
}

static inline void TF_TString_Append(TF_TString* dst, const TF_TString* src) {
  TF_TString_AppendN(dst, TF_TString_GetDataPointer(src),
                     TF_TString_GetSize(src));
}

/* Replaces the contents with a copy of src[0, size). When size exceeds
 * TF_TSTRING_MAX_SIZE or memory runs out, dst is left unchanged. */
static inline void TF_TString_Copy(TF_TString* dst, const char* src,
                                   size_t size) {
  char* p;
  TF_TString_Type type = TF_TString_GetType(dst);
  if ((type == TF_TSTR_SMALL || type == TF_TSTR_LARGE) && size != 0) {
    /* When src lies inside dst's own bytes, resizing dst in place would
     * clobber src before it is read: build the result on the side. */
    const char* cur = TF_TString_GetDataPointer(dst);
    size_t cur_size = TF_TString_GetSize(dst);
    if (src >= cur && src <= cur + cur_size) {
      TF_TString tmp;
      TF_TString_Init(&tmp);
      p = TF_TString_ResizeUninitialized(&tmp, size);
      if (p == NULL) return;
      memcpy(p, src, size);
      TF_TString_Dealloc(dst);
      *dst = tmp;
      return;
    }
  }
  if (type == TF_TSTR_VIEW || type == TF_TSTR_OFFSET) {
    /* Borrowed bytes: nothing to free, but src may lie inside them, so an
     * owner's reference is dropped only once they are copied. */
    TStringOwnerCApi* owner = TF_TString_ViewOwner(dst);
    TF_TString tmp;
    TF_TString_Init(&tmp);
    p = TF_TString_ResizeUninitialized(&tmp, size);
    if (p == NULL) return;
    if (size) memcpy(p, src, size);
    *dst = tmp;
    TF_TString_ReleaseOwner(owner);
    return;
  }
  p = TF_TString_ResizeUninitialized(dst, size);
  if (p != NULL && size) memmove(p, src, size);
}

/* Makes dst a copy of src; a VIEW stays a VIEW of the same bytes (and
 * takes its own reference to their owner, if any). */
static inline void TF_TString_Assign(TF_TString* dst, const TF_TString* src) {
  if (dst == src) return;
  if (TF_TString_GetType(src) == TF_TSTR_VIEW) {
    TF_TString_AssignViewWithOwner(dst, src->u.view.ptr,
                                   TF_TString_GetSize(src),
                                   src->u.view.owner_ref);
    return;
  }
  TF_TString_Copy(dst, TF_TString_GetDataPointer(src), TF_TString_GetSize(src));
}

/* Moves src's contents into dst and leaves src empty; a VIEW's owner
 * reference moves with it. An OFFSET string is copied, since its bytes are
 * only reachable from its own address. */
static inline void TF_TString_Move(TF_TString* dst, TF_TString* src) {
  if (dst == src) return;
  if (TF_TString_GetType(src) == TF_TSTR_OFFSET) {
    TF_TString_Copy(dst, TF_TString_GetDataPointer(src),
                    TF_TString_GetSize(src));
  } else {
    TF_TString_Dealloc(dst);
    *dst = *src;
  }
  TF_TString_Init(src);
}

#endif /* TFE_CFFI_CDEF */

#endif /* TENSORFLOW_TSL_PLATFORM_CTSTRING_INTERNAL_H_ */
