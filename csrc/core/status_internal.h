/* The layout of TF_Status (TSL_Status) and helpers the core uses to fill
 * one in. */
#ifndef TFE_CORE_STATUS_INTERNAL_H_
#define TFE_CORE_STATUS_INTERNAL_H_

#include <stddef.h>

#include "tensorflow/c/tf_status.h"

typedef struct tfe_payload {
  char* key;
  char* value;
  struct tfe_payload* next;
} tfe_payload;

struct TSL_Status {
  TF_Code code;
  /* NULL means "" (no allocation for the common OK case). */
  char* msg;
  tfe_payload* payloads;
};

/* Sets *s to code with a printf-formatted message. NULL s is ignored.
 * If the message cannot be allocated the code is still recorded. */
void tfe_status_setf(TF_Status* s, TF_Code code, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Convenience checks used at API entry points. */
#define TFE_OK(s) ((s) == NULL || (s)->code == TF_OK)

/* Sets *s to TF_OK cheaply (no allocation). */
static inline void tfe_status_ok(TF_Status* s) {
  if (s != NULL && (s->code != TF_OK || s->msg != NULL || s->payloads)) {
    TF_SetStatus(s, TF_OK, "");
  }
}

/* Copies code, message and payloads of src into dst. */
void tfe_status_copy(TF_Status* dst, const TF_Status* src);

#endif /* TFE_CORE_STATUS_INTERNAL_H_ */
