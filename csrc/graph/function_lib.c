/* Placeholder until functions land: libraries are always empty. */
#include "graph/function_lib.h"

#include "core/alloc.h"
#include "core/status_internal.h"

struct tfe_flib {
  int unused;
};

tfe_flib* tfe_flib_new(void) {
  return (tfe_flib*)tfe_calloc(1, sizeof(tfe_flib));
}
void tfe_flib_free(tfe_flib* lib) { tfe_free(lib); }
int tfe_flib_add(tfe_flib* lib, const TF_Function* fn, TF_Status* s) {
  (void)lib, (void)fn;
  tfe_status_setf(s, TF_UNIMPLEMENTED, "functions are not implemented yet");
  return 0;
}
int tfe_flib_add_fdef(tfe_flib* lib, const void* fdef, size_t len,
                      TF_Status* s) {
  (void)lib, (void)fdef, (void)len;
  tfe_status_setf(s, TF_UNIMPLEMENTED, "functions are not implemented yet");
  return 0;
}
int tfe_flib_add_library(tfe_flib* lib, const void* data, size_t len,
                         TF_Status* s) {
  (void)lib, (void)data;
  if (len == 0) {
    tfe_status_ok(s);
    return 1;
  }
  tfe_status_setf(s, TF_UNIMPLEMENTED, "functions are not implemented yet");
  return 0;
}
int tfe_flib_merge(tfe_flib* dst, const tfe_flib* src, TF_Status* s) {
  (void)dst, (void)src;
  tfe_status_ok(s);
  return 1;
}
int tfe_flib_remove(tfe_flib* lib, const char* name, TF_Status* s) {
  (void)lib;
  tfe_status_setf(s, TF_INVALID_ARGUMENT, "function '%s' not found", name);
  return 0;
}
int tfe_flib_count(const tfe_flib* lib) {
  (void)lib;
  return 0;
}
const TF_Function* tfe_flib_at(const tfe_flib* lib, int i) {
  (void)lib, (void)i;
  return NULL;
}
const tfe_op_def* tfe_flib_signature(const tfe_flib* lib, const char* name) {
  (void)lib, (void)name;
  return NULL;
}
const TF_Function* tfe_flib_find(const tfe_flib* lib, const char* name) {
  (void)lib, (void)name;
  return NULL;
}
void tfe_flib_encode(const tfe_flib* lib, tfe_pbw* out) {
  (void)lib, (void)out;
}
