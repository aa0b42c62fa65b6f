/* TF_Status / TSL_Status. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/codes.h"
#include "core/status_internal.h"
#include "tfe/tfe.h"

static void free_payloads(TF_Status* s) {
  tfe_payload* p = s->payloads;
  while (p != NULL) {
    tfe_payload* next = p->next;
    tfe_free(p->key);
    tfe_free(p->value);
    tfe_free(p);
    p = next;
  }
  s->payloads = NULL;
}

TF_Status* TF_NewStatus(void) {
  TF_Status* s = (TF_Status*)tfe_calloc(1, sizeof(*s));
  if (s == NULL) return NULL;
  s->code = TF_OK;
  tfe_count_inc(TFE_OBJ_STATUS);
  return s;
}

void TF_DeleteStatus(TF_Status* s) {
  if (s == NULL) return;
  free_payloads(s);
  tfe_free(s->msg);
  tfe_free(s);
  tfe_count_dec(TFE_OBJ_STATUS);
}

static int valid_code(TF_Code code) {
  return (int)code >= 0 && (int)code <= 16;
}

void TF_SetStatus(TF_Status* s, TF_Code code, const char* msg) {
  if (s == NULL) return;
  free_payloads(s);
  tfe_free(s->msg);
  s->msg = NULL;
  /* An out-of-table code is recorded as UNKNOWN rather than trusted. */
  s->code = valid_code(code) ? code : TF_UNKNOWN;
  if (s->code == TF_OK) return;
  if (msg != NULL && msg[0] != '\0') s->msg = tfe_strdup(msg);
}

void tfe_status_setf(TF_Status* s, TF_Code code, const char* fmt, ...) {
  char small[512];
  va_list ap;
  int n;
  if (s == NULL) return;
  va_start(ap, fmt);
  n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0) {
    TF_SetStatus(s, code, "");
    return;
  }
  if ((size_t)n < sizeof small) {
    TF_SetStatus(s, code, small);
    return;
  }
  {
    char* big = (char*)tfe_malloc((size_t)n + 1);
    if (big == NULL) {
      TF_SetStatus(s, code, small); /* truncated, but still informative */
      return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    TF_SetStatus(s, code, big);
    tfe_free(big);
  }
}

void TF_SetPayload(TF_Status* s, const char* key, const char* value) {
  tfe_payload* p;
  char *k, *v;
  if (s == NULL || key == NULL || value == NULL || s->code == TF_OK) return;
  for (p = s->payloads; p != NULL; p = p->next) {
    if (strcmp(p->key, key) == 0) {
      v = tfe_strdup(value);
      if (v == NULL) return;
      tfe_free(p->value);
      p->value = v;
      return;
    }
  }
  p = (tfe_payload*)tfe_malloc(sizeof(*p));
  k = tfe_strdup(key);
  v = tfe_strdup(value);
  if (p == NULL || k == NULL || v == NULL) {
    tfe_free(p);
    tfe_free(k);
    tfe_free(v);
    return;
  }
  p->key = k;
  p->value = v;
  p->next = s->payloads;
  s->payloads = p;
}

void TF_ForEachPayload(const TF_Status* s, TF_PayloadVisitor visitor,
                       void* capture) {
  const tfe_payload* p;
  if (s == NULL || visitor == NULL) return;
  for (p = s->payloads; p != NULL; p = p->next) {
    visitor(p->key, p->value, capture);
  }
}

/* errno -> code, following the table TensorFlow uses for I/O errors. */
static TF_Code errno_to_code(int e) {
  switch (e) {
    case 0:
      return TF_OK;
    case EINVAL: case ENAMETOOLONG: case E2BIG: case EDESTADDRREQ:
    case EDOM: case EFAULT: case EILSEQ: case ENOPROTOOPT: case ENOSTR:
    case ENOTSOCK: case ENOTTY: case EPROTOTYPE: case ESPIPE:
      return TF_INVALID_ARGUMENT;
    case ETIMEDOUT: case ETIME:
      return TF_DEADLINE_EXCEEDED;
    case ENODEV: case ENOENT: case ENXIO: case ESRCH:
      return TF_NOT_FOUND;
    case EEXIST: case EADDRNOTAVAIL: case EALREADY:
      return TF_ALREADY_EXISTS;
    case EPERM: case EACCES: case EROFS:
      return TF_PERMISSION_DENIED;
    case ENOTEMPTY: case EISDIR: case ENOTDIR: case EADDRINUSE: case EBADF:
    case EBUSY: case ECHILD: case EISCONN: case ENOTBLK: case ENOTCONN:
    case EPIPE: case ESHUTDOWN: case ETXTBSY:
      return TF_FAILED_PRECONDITION;
    case ENOSPC: case EDQUOT: case EMFILE: case EMLINK: case ENFILE:
    case ENOBUFS: case ENODATA: case ENOMEM: case ENOSR: case EUSERS:
      return TF_RESOURCE_EXHAUSTED;
    case EFBIG: case EOVERFLOW: case ERANGE:
      return TF_OUT_OF_RANGE;
    case ENOSYS: case ENOTSUP: case EAFNOSUPPORT: case EPFNOSUPPORT:
    case EPROTONOSUPPORT: case ESOCKTNOSUPPORT: case EXDEV:
      return TF_UNIMPLEMENTED;
    case EAGAIN: case ECONNREFUSED: case ECONNABORTED: case ECONNRESET:
    case EINTR: case EHOSTDOWN: case EHOSTUNREACH: case ENETDOWN:
    case ENETRESET: case ENETUNREACH: case ENOLCK: case ENOLINK:
#ifdef ENONET
    case ENONET:
#endif
      return TF_UNAVAILABLE;
    case EDEADLK: case ESTALE:
      return TF_ABORTED;
    case ECANCELED:
      return TF_CANCELLED;
    default:
      return TF_UNKNOWN;
  }
}

void TF_SetStatusFromIOError(TF_Status* s, int error_code,
                             const char* context) {
  char buf[256];
  const char* why;
  TF_Code code;
  if (s == NULL) return;
  code = errno_to_code(error_code);
  if (code == TF_OK) {
    TF_SetStatus(s, TF_OK, "");
    return;
  }
#if defined(__GLIBC__) && defined(_GNU_SOURCE)
  why = strerror_r(error_code, buf, sizeof buf);
#else
  if (strerror_r(error_code, buf, sizeof buf) != 0) {
    snprintf(buf, sizeof buf, "errno %d", error_code);
  }
  why = buf;
#endif
  tfe_status_setf(s, code, "%s; %s", context ? context : "", why);
}

TF_Code TF_GetCode(const TF_Status* s) { return s == NULL ? TF_OK : s->code; }

const char* TF_Message(const TF_Status* s) {
  if (s == NULL || s->code == TF_OK || s->msg == NULL) return "";
  return s->msg;
}

void tfe_status_copy(TF_Status* dst, const TF_Status* src) {
  const tfe_payload* p;
  if (dst == NULL || dst == src) return;
  TF_SetStatus(dst, TF_GetCode(src), TF_Message(src));
  if (src == NULL) return;
  for (p = src->payloads; p != NULL; p = p->next) {
    TF_SetPayload(dst, p->key, p->value);
  }
}

const char* TFE_CodeName(TF_Code code) {
  switch ((int)code) {
#define TFE_CODE_NAME_CASE(name, value) \
  case value:                           \
    return #name;
    TFE_CODE_TABLE(TFE_CODE_NAME_CASE)
#undef TFE_CODE_NAME_CASE
    default:
      return "UNKNOWN_CODE";
  }
}

/* The TSL_* names are the same functions under TensorFlow's other prefix. */
TSL_Status* TSL_NewStatus(void) { return TF_NewStatus(); }
void TSL_DeleteStatus(TSL_Status* s) { TF_DeleteStatus(s); }
void TSL_SetStatus(TSL_Status* s, TSL_Code code, const char* msg) {
  TF_SetStatus(s, code, msg);
}
void TSL_SetPayload(TSL_Status* s, const char* key, const char* value) {
  TF_SetPayload(s, key, value);
}
void TSL_ForEachPayload(const TSL_Status* s, TSL_PayloadVisitor visitor,
                        void* capture) {
  TF_ForEachPayload(s, visitor, capture);
}
void TSL_SetStatusFromIOError(TSL_Status* s, int error_code,
                              const char* context) {
  TF_SetStatusFromIOError(s, error_code, context);
}
TSL_Code TSL_GetCode(const TSL_Status* s) { return TF_GetCode(s); }
const char* TSL_Message(const TSL_Status* s) { return TF_Message(s); }
