/* Functions of an eager context: TFE_ContextAddFunction(Def),
 * TFE_ContextHasFunction, TFE_ContextRemoveFunction,
 * TFE_ContextGetFunctionDef, TFE_ContextGetFunction, and the op lookup
 * that finds a function by name for TFE_NewOp. A context's library is made
 * on first use (most contexts never see a function); a session's context
 * shares its graph's library instead (tfe_ctx_set_flib). Running a
 * function is the job of its call kernel (csrc/graph/function_exec.c). */
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "eager/eager_internal.h"
#include "graph/function_internal.h"

tfe_flib* tfe_ctx_flib(TFE_Context* ctx) {
  tfe_flib* lib;
  if (ctx == NULL) return NULL;
  lib = atomic_load_explicit(&ctx->flib, memory_order_acquire);
  if (lib == NULL) {
    tfe_flib* fresh = tfe_flib_new();
    if (fresh == NULL) return NULL;
    if (!atomic_compare_exchange_strong(&ctx->flib, &lib, fresh)) {
      tfe_flib_free(fresh); /* another thread won; lib holds its library */
    } else {
      lib = fresh;
    }
  }
  return lib;
}

void tfe_ctx_set_flib(TFE_Context* ctx, struct tfe_flib* lib) {
  tfe_flib* old;
  if (ctx == NULL) return;
  old = atomic_exchange(&ctx->flib, tfe_flib_ref(lib));
  tfe_flib_free(old);
  tfe_kcache_clear(&ctx->cache);
}

void tfe_ctx_flib_free(TFE_Context* ctx) {
  tfe_flib_free(atomic_exchange(&ctx->flib, NULL));
}

const tfe_op_def* tfe_ctx_lookup_def(TFE_Context* ctx, const char* name,
                                     TF_Status* s) {
  const tfe_op_def* def = tfe_op_lookup(name);
  tfe_flib* lib;
  if (def != NULL) return def;
  lib = atomic_load_explicit(&ctx->flib, memory_order_acquire);
  if (lib != NULL) {
    def = tfe_flib_signature(lib, name);
    if (def != NULL) return def;
  }
  return tfe_op_lookup_def(name, s);
}

static tfe_flib* ctx_lib(TFE_Context* ctx, const char* fn, TF_Status* s) {
  tfe_flib* lib;
  if (!tfe_ctx_check(ctx, fn, s)) return NULL;
  lib = tfe_ctx_flib(ctx);
  if (lib == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "%s: out of memory", fn);
  }
  return lib;
}

void TFE_ContextAddFunctionDef(TFE_Context* ctx,
                               const char* serialized_function_def,
                               size_t size, TF_Status* status) {
  tfe_flib* lib = ctx_lib(ctx, "TFE_ContextAddFunctionDef", status);
  if (lib == NULL) return;
  if (serialized_function_def == NULL && size > 0) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Invalid FunctionDef proto");
    return;
  }
  tfe_flib_add_fdef(lib, serialized_function_def, size, status);
}

void TFE_ContextAddFunction(TFE_Context* ctx, TF_Function* function,
                            TF_Status* status) {
  tfe_flib* lib = ctx_lib(ctx, "TFE_ContextAddFunction", status);
  if (lib == NULL) return;
  if (!tfe_function_valid(function)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_ContextAddFunction: function is not a "
                    "TF_Function");
    return;
  }
  tfe_flib_add(lib, function, status);
}

void TFE_ContextRemoveFunction(TFE_Context* ctx, const char* name,
                               TF_Status* status) {
  tfe_flib* lib = ctx_lib(ctx, "TFE_ContextRemoveFunction", status);
  if (lib == NULL) return;
  if (!tfe_flib_release(lib, name, status)) return;
  /* Kernels cached with the function's instances must not outlive it. */
  if (tfe_flib_find(lib, name) == NULL) tfe_kcache_clear(&ctx->cache);
}

unsigned char TFE_ContextHasFunction(TFE_Context* ctx, const char* name) {
  tfe_flib* lib;
  if (ctx == NULL || ctx->magic != TFE_CTX_MAGIC || name == NULL) return 0;
  lib = atomic_load_explicit(&ctx->flib, memory_order_acquire);
  return tfe_flib_find(lib, name) != NULL;
}

void TFE_ContextGetFunctionDef(TFE_Context* ctx, const char* function_name,
                               TF_Buffer* buf, TF_Status* status) {
  const TF_Function* fn;
  TF_Function* copy;
  if (!tfe_ctx_check(ctx, "TFE_ContextGetFunctionDef", status)) return;
  if (function_name == NULL || buf == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_ContextGetFunctionDef: name and buffer must not be "
                    "NULL");
    return;
  }
  fn = tfe_flib_find(atomic_load(&ctx->flib), function_name);
  if (fn == NULL) {
    tfe_status_setf(status, TF_NOT_FOUND,
                    "Unable to find FunctionDef with name: %s",
                    function_name);
    return;
  }
  copy = (TF_Function*)fn;
  TF_FunctionToFunctionDef(copy, buf, status);
}

TF_Function* TFE_ContextGetFunction(TFE_Context* ctx, const char* name,
                                    TF_Status* status) {
  const TF_Function* fn;
  if (!tfe_ctx_check(ctx, "TFE_ContextGetFunction", status)) return NULL;
  if (name == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_ContextGetFunction: name is NULL");
    return NULL;
  }
  fn = tfe_flib_find(atomic_load(&ctx->flib), name);
  if (fn == NULL) {
    tfe_status_setf(status, TF_NOT_FOUND,
                    "Unable to find Function with name: %s", name);
    return NULL;
  }
  return tfe_function_copy(fn, status);
}
