/* Generic kernel bodies and registration helpers for the elementwise
 * kernels (see elementwise_common.h). */
#include "kernels/cpu/elementwise_common.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "core/threadpool.h"
#include "kernels/cpu/cpu_kernels.h"

int tfe_ew_check_inputs(tfe_kernel_context* k, int n) {
  int i;
  const char* name = k->op_def && k->op_def->name ? k->op_def->name : "?";
  if (k->num_inputs != n || k->inputs == NULL) {
    tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                    "%s expects %d inputs, got %d", name, n, k->num_inputs);
    return 0;
  }
  if (k->num_outputs < 1 || k->outputs == NULL) {
    tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                    "%s expects an output slot", name);
    return 0;
  }
  for (i = 0; i < n; i++) {
    if (k->inputs[i] == NULL) {
      tfe_status_setf(k->status, TF_INVALID_ARGUMENT, "%s: input %d is NULL",
                      name, i);
      return 0;
    }
  }
  return 1;
}

/* ---- running range functions ---- */

typedef struct ew_job {
  tfe_ew_fn fn;
  const tfe_bcast* bc;
  const void* const* in;
  void* out;
  const void* params;
  atomic_int err;
} ew_job;

static void ew_chunk(void* arg, int64_t begin, int64_t end) {
  ew_job* j = (ew_job*)arg;
  if (j->fn(j->bc, j->in, j->out, begin, end, j->params)) {
    atomic_store_explicit(&j->err, 1, memory_order_relaxed);
  }
}

int tfe_ew_run(tfe_kernel_context* k, tfe_ew_fn fn, const tfe_bcast* bc,
               const void* const* in, void* out, int64_t n,
               const void* params, int64_t min_chunk) {
  tfe_threadpool* pool;
  ew_job job;
  if (n <= 0) return 0;
  if (min_chunk < 1) min_chunk = 1;
  if (n < 2 * min_chunk) return fn(bc, in, out, 0, n, params);
  pool = tfe_kernel_threadpool(k);
  if (tfe_threadpool_size(pool) <= 1) return fn(bc, in, out, 0, n, params);
  job.fn = fn;
  job.bc = bc;
  job.in = in;
  job.out = out;
  job.params = params;
  atomic_init(&job.err, 0);
  tfe_parallel_for(pool, n, min_chunk, ew_chunk, &job);
  return atomic_load(&job.err);
}

static void set_no_kernel(tfe_kernel_context* k, const tfe_ew_op* op,
                          TF_DataType dt) {
  tfe_status_setf(k->status, TF_UNIMPLEMENTED,
                  "No %s kernel for dtype %s on CPU", op->name,
                  tfe_dtype_enum_name(dt));
}

/* The output of an elementwise op: an input's buffer when the runtime
 * lets the kernel reuse it (an input of the output's dtype and size that
 * nobody else can observe, see tfe_kernel_forward_or_alloc_output), else a
 * new one. The range functions are in-place safe for this: output element
 * i is stored after input element i was loaded, and a forwarded input has
 * the output's element count, so it is read at the output's own index
 * (never broadcast). Where an op can fail on an element (only integer
 * dtypes do: division by zero, negative powers) the output is always
 * allocated, so a failure never leaves an input half overwritten. */
TF_Tensor* tfe_ew_forward_or_alloc(tfe_kernel_context* k, const tfe_ew_op* op,
                                   TF_DataType dt, TF_DataType out_dt,
                                   const int64_t* dims, int num_dims) {
  static const int candidates[2] = {0, 1};
  int may_fail = (op->err_msg != NULL || op->err_code != TF_OK) &&
                 dt != TF_FLOAT && dt != TF_DOUBLE && dt != TF_HALF &&
                 dt != TF_BFLOAT16 && dt != TF_COMPLEX64 &&
                 dt != TF_COMPLEX128;
  if (may_fail) {
    return tfe_kernel_alloc_output(k, 0, out_dt, dims, num_dims);
  }
  return tfe_kernel_forward_or_alloc_output(k, candidates, op->num_inputs, 0,
                                            out_dt, dims, num_dims, NULL);
}

/* The two common binary cases without the general broadcast walk: equal
 * shapes, or y a scalar (rank 0). Fills *bc exactly as tfe_bcast_init
 * would (one collapsed axis of all elements; y's stride 0 when it is
 * broadcast) and returns 1; returns 0 for anything else. */
static int ew_bcast_simple(tfe_bcast* bc, const TF_Tensor* x,
                           const TF_Tensor* y) {
  int64_t n;
  int i;
  if (y->num_dims != 0 && y->num_dims != x->num_dims) return 0;
  if (x->num_dims < 0 || x->num_dims > TFE_MAX_DIMS) return 0;
  if (y->num_dims != 0) {
    for (i = 0; i < x->num_dims; i++) {
      if (x->dims[i] != y->dims[i]) return 0;
    }
  }
  n = tfe_shape_num_elements(x->dims, x->num_dims);
  if (n < 0) return 0;
  bc->num_inputs = 2;
  bc->out_rank = x->num_dims;
  for (i = 0; i < x->num_dims; i++) bc->out_dims[i] = x->dims[i];
  bc->out_elems = n;
  bc->in_elems[0] = n;
  bc->in_elems[1] = y->num_dims == 0 ? 1 : n;
  bc->rank = 1;
  bc->dims[0] = n;
  bc->strides[0][0] = 1;
  bc->strides[1][0] = (y->num_dims != 0 || n == 1) ? 1 : 0;
  return 1;
}

void tfe_ew_compute(tfe_kernel_context* k) {
  const tfe_ew_op* op = (const tfe_ew_op*)k->user_data;
  tfe_ew_params prm;
  TF_DataType dt, out_dt;
  tfe_ew_fn fn;
  TF_Tensor* out;
  const void* in[2];
  int err, j;
  int64_t chunk;
  memset(&prm, 0, sizeof prm);
  if (op == NULL || !tfe_ew_check_inputs(k, op->num_inputs)) {
    if (op == NULL) {
      tfe_status_setf(k->status, TF_INTERNAL,
                      "elementwise kernel registered without its table");
    }
    return;
  }
  dt = k->inputs[0]->dtype;
  for (j = 1; j < op->num_inputs; j++) {
    if (k->inputs[j]->dtype != dt) {
      tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                      "%s: input %d has dtype %s but input 0 has %s", op->name,
                      j, tfe_dtype_enum_name(k->inputs[j]->dtype),
                      tfe_dtype_enum_name(dt));
      return;
    }
  }
  fn = (unsigned)dt < TFE_EW_NTYPES ? op->fns[dt] : NULL;
  if (fn == NULL) {
    set_no_kernel(k, op, dt);
    return;
  }
  if (op->read_params != NULL && !op->read_params(k, &prm)) return;
  out_dt = op->out_bool ? TF_BOOL : dt;
  for (j = 0; j < op->num_inputs; j++) in[j] = tfe_ew_data(k->inputs[j]);
  /* half/bfloat16/complex cost more per element than native types */
  chunk = (op->heavy || dt == TF_HALF || dt == TF_BFLOAT16 ||
           dt == TF_COMPLEX64 || dt == TF_COMPLEX128)
              ? TFE_EW_CHUNK_HEAVY
              : TFE_EW_CHUNK_CHEAP;

  if (op->num_inputs == 1) {
    const TF_Tensor* x = k->inputs[0];
    out = k->forwardable == 0
              ? tfe_kernel_alloc_output(k, 0, out_dt, x->dims, x->num_dims)
              : tfe_ew_forward_or_alloc(k, op, dt, out_dt, x->dims,
                                        x->num_dims);
    if (out == NULL) return;
    err = tfe_ew_run(k, fn, NULL, in, tfe_ew_data(out),
                     tfe_ew_num_elements(x), &prm, chunk);
  } else {
    tfe_bcast bc;
    const TF_Tensor* x = k->inputs[0];
    const TF_Tensor* y = k->inputs[1];
    const int64_t* dims[2];
    int ranks[2];
    int code;
    dims[0] = x->dims;
    dims[1] = y->dims;
    ranks[0] = x->num_dims;
    ranks[1] = y->num_dims;
    code = ew_bcast_simple(&bc, x, y) ? TFE_BCAST_OK
                                      : tfe_bcast_init(&bc, 2, dims, ranks);
    if (code == TFE_BCAST_INCOMPATIBLE || code == TFE_BCAST_BAD_ARGS) {
      char sx[256], sy[256];
      tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                      "Incompatible shapes: %s vs. %s",
                      tfe_format_shape(x->dims, x->num_dims, sx, sizeof sx),
                      tfe_format_shape(y->dims, y->num_dims, sy, sizeof sy));
      return;
    }
    if (bc.out_elems != 0 && !tfe_bcast_is_linear(&bc) &&
        (code == TFE_BCAST_TOO_COMPLEX || bc.rank > op->max_rank)) {
      char sx[256], sy[256];
      tfe_status_setf(k->status, TF_UNIMPLEMENTED,
                      "Broadcast between %s and %s is not supported yet.",
                      tfe_format_shape(x->dims, x->num_dims, sx, sizeof sx),
                      tfe_format_shape(y->dims, y->num_dims, sy, sizeof sy));
      return;
    }
    out = k->forwardable == 0
              ? tfe_kernel_alloc_output(k, 0, out_dt, bc.out_dims,
                                        bc.out_rank)
              : tfe_ew_forward_or_alloc(k, op, dt, out_dt, bc.out_dims,
                                        bc.out_rank);
    if (out == NULL || bc.out_elems == 0) return;
    err = tfe_ew_run(k, fn, &bc, in, tfe_ew_data(out), bc.out_elems, &prm,
                     chunk);
  }
  if (err) {
    tfe_status_setf(k->status, op->err_code ? op->err_code : TF_INTERNAL,
                    "%s", op->err_msg ? op->err_msg : "elementwise error");
  }
}

void tfe_ew_register_fn(const char* op_name,
                        void (*compute)(tfe_kernel_context*), void* user_data,
                        const char* attr1, const TF_DataType* types1, int n1,
                        const char* attr2, const TF_DataType* types2,
                        int n2) {
  tfe_kernel_reg reg;
  TF_Status* s;
  memset(&reg, 0, sizeof reg);
  reg.op_name = op_name;
  reg.device_type = "CPU";
  reg.compute = compute;
  reg.user_data = user_data;
  if (attr1 != NULL) {
    reg.constraints[reg.num_constraints].attr = attr1;
    reg.constraints[reg.num_constraints].types = types1;
    reg.constraints[reg.num_constraints].num_types = n1;
    reg.num_constraints++;
  }
  if (attr2 != NULL) {
    reg.constraints[reg.num_constraints].attr = attr2;
    reg.constraints[reg.num_constraints].types = types2;
    reg.constraints[reg.num_constraints].num_types = n2;
    reg.num_constraints++;
  }
  s = TF_NewStatus();
  /* A failure here (a duplicate or no memory at start-up) leaves the op
   * without this kernel; lookups then report NOT_FOUND. */
  tfe_kernel_register(&reg, s);
  TF_DeleteStatus(s);
}

void tfe_ew_register(const tfe_ew_op* op) {
  TF_DataType types[TFE_EW_NTYPES];
  int n = 0, t;
  for (t = 0; t < TFE_EW_NTYPES; t++) {
    if (op->fns[t] != NULL) types[n++] = (TF_DataType)t;
  }
  tfe_ew_register_fn(op->name, tfe_ew_compute, (void*)op, "T", types, n, NULL,
                     NULL, 0);
}

void tfe_register_cpu_elementwise_kernels(void) {
  tfe_ew_register_unary_math();
  tfe_ew_register_unary_special();
  tfe_ew_register_activations();
  tfe_ew_register_binary_arith();
  tfe_ew_register_binary_div();
  tfe_ew_register_binary_bitwise();
  tfe_ew_register_compare();
  tfe_ew_register_logical();
  tfe_ew_register_select();
  tfe_ew_register_cast();
  tfe_ew_register_misc();
  tfe_ew_register_extra();
}
