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

/* tfe_kernel_can_forward's test (kernels/context.c) for input c of an
 * elementwise op whose output has n elements of dtype dt, here without
 * the call: it runs for every elementwise kernel of a graph. */
static int ew_can_forward(const tfe_kernel_context* k, int c, TF_DataType dt,
                          int64_t n) {
  const TF_Tensor* in;
  const tfe_tensor_buffer* b;
  if (c >= k->num_inputs || k->inputs == NULL ||
      (k->forwardable & ((uint64_t)1 << c)) == 0) {
    return 0;
  }
  if (k->input_refs != NULL && k->input_refs[c] != NULL) return 0;
  in = k->inputs[c];
  if (in == NULL || in->dtype != dt || dt == TF_STRING || dt == TF_VARIANT ||
      dt == TF_RESOURCE) {
    return 0;
  }
  if (tfe_shape_num_elements(in->dims, in->num_dims) != n) return 0;
  b = in->buf;
  if (b == NULL || !b->owns_memory || b->data == NULL) return 0;
  return atomic_load_explicit(&((tfe_tensor_buffer*)b)->refcount,
                              memory_order_acquire) == 1;
}

/* Whether the graph executor hands input c on to this kernel
 * (tfe_t_hand_on, core/tensor_internal.h); claims it when so. */
static inline int ew_take_input(const tfe_kernel_context* k, int c) {
  tfe_hand_on* h = &tfe_t_hand_on;
  const uint64_t bit = (uint64_t)1 << c;
  if (h->inputs != k->inputs || (h->mask & bit) == 0) return 0;
  h->mask &= ~bit;
  return 1;
}

/* The output of an elementwise op: an input's buffer when the runtime
 * lets the kernel reuse it (an input of the output's dtype and size that
 * nobody else can observe, as tfe_kernel_forward_or_alloc_output decides),
 * else a new one. An input the graph executor hands on (tfe_t_hand_on)
 * with the output's very shape becomes the output itself, struct and all.
 * The range functions are in-place safe for this: output element
 * i is stored after input element i was loaded, and a forwarded input has
 * the output's element count, so it is read at the output's own index
 * (never broadcast). Where an op can fail on an element (only integer
 * dtypes do: division by zero, negative powers) the output is always
 * allocated, so a failure never leaves an input half overwritten. */
TF_Tensor* tfe_ew_forward_or_alloc(tfe_kernel_context* k, const tfe_ew_op* op,
                                   TF_DataType dt, TF_DataType out_dt,
                                   const int64_t* dims, int num_dims) {
  int may_fail = (op->err_msg != NULL || op->err_code != TF_OK) &&
                 dt != TF_FLOAT && dt != TF_DOUBLE && dt != TF_HALF &&
                 dt != TF_BFLOAT16 && dt != TF_COMPLEX64 &&
                 dt != TF_COMPLEX128;
  int64_t n;
  int c;
  if (may_fail || k->forwardable == 0 || k->outputs == NULL ||
      k->num_outputs < 1 || num_dims < 0 || num_dims > TFE_MAX_DIMS ||
      (num_dims > 0 && dims == NULL) ||
      (n = tfe_shape_num_elements(dims, num_dims)) < 0) {
    return tfe_kernel_alloc_output(k, 0, out_dt, dims, num_dims);
  }
  for (c = 0; c < op->num_inputs && c < 2; c++) {
    TF_Tensor* in;
    TF_Tensor* t;
    if (!ew_can_forward(k, c, out_dt, n)) continue;
    in = k->inputs[c];
    t = NULL;
    if (in->num_dims == num_dims &&
        (num_dims == 0 ||
         memcmp(in->dims, dims, sizeof(int64_t) * (size_t)num_dims) == 0) &&
        ew_take_input(k, c)) {
      t = in;
    }
    if (t == NULL) {
      t = tfe_tensor_from_buffer(out_dt, dims, num_dims, in->buf);
      if (t == NULL) break; /* out of memory: let allocation report it */
    }
    if (k->outputs[0] != NULL && k->outputs[0] != t) {
      TF_DeleteTensor(k->outputs[0]);
    }
    k->outputs[0] = t;
    k->forwarded |= (uint64_t)1 << c;
    return t;
  }
  return tfe_kernel_alloc_output(k, 0, out_dt, dims, num_dims);
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

/* The usual case of tfe_ew_check_inputs without a call; the function
 * itself runs (and reports) when something is off. */
static inline int ew_inputs_ok(tfe_kernel_context* k, int n) {
  int i;
  if (k->num_inputs == n && k->inputs != NULL && k->num_outputs >= 1 &&
      k->outputs != NULL) {
    for (i = 0; i < n && k->inputs[i] != NULL; i++) {
    }
    if (i == n) return 1;
  }
  return tfe_ew_check_inputs(k, n);
}

/* tfe_ew_run, with the common single-chunk case inline. */
static inline int ew_run(tfe_kernel_context* k, tfe_ew_fn fn,
                         const tfe_bcast* bc, const void* const* in,
                         void* out, int64_t n, const void* params,
                         int64_t min_chunk) {
  if (n > 0 && n < 2 * min_chunk) return fn(bc, in, out, 0, n, params);
  return tfe_ew_run(k, fn, bc, in, out, n, params, min_chunk);
}

/* The most common binary case in one pass, with the same results as the
 * general path of tfe_ew_compute: two inputs of one float, double or
 * (for ops that cannot fail on an element) int32/int64 dtype, of equal
 * shapes or y a scalar, few enough elements to run as one chunk. Returns
 * 0 (nothing done) for anything else. */
static int ew_binary_simple(tfe_kernel_context* k, const tfe_ew_op* op) {
  TF_Tensor* x;
  TF_Tensor* y;
  TF_Tensor* out = NULL;
  TF_DataType dt;
  tfe_ew_fn fn;
  tfe_bcast bc;
  tfe_ew_params prm;
  const void* in[2];
  int64_t n = 1;
  int i, nd, c, full_y;
  if (op->num_inputs != 2 || op->read_params != NULL || op->out_bool ||
      op->heavy || k->num_inputs != 2 || k->inputs == NULL ||
      k->num_outputs < 1 || k->outputs == NULL) {
    return 0;
  }
  x = k->inputs[0];
  y = k->inputs[1];
  if (x == NULL || y == NULL) return 0;
  dt = x->dtype;
  if (y->dtype != dt ||
      !(dt == TF_FLOAT || dt == TF_DOUBLE ||
        ((dt == TF_INT32 || dt == TF_INT64) && op->err_msg == NULL &&
         op->err_code == TF_OK))) {
    return 0;
  }
  fn = op->fns[dt];
  nd = x->num_dims;
  if (fn == NULL || nd < 1 || nd > TFE_INLINE_DIMS) return 0;
  full_y = y->num_dims != 0;
  if (full_y) {
    if (y->num_dims != nd) return 0;
    for (i = 0; i < nd; i++) {
      if (x->dims[i] != y->dims[i]) return 0;
    }
  }
  for (i = 0; i < nd; i++) {
    if (x->dims[i] < 0 || __builtin_mul_overflow(n, x->dims[i], &n)) return 0;
  }
  /* Empty outputs, one-element ones (y could be forwarded with another
   * shape) and ones worth splitting take the general path. */
  if (n <= 1 || n >= 2 * TFE_EW_CHUNK_CHEAP) return 0;
  in[0] = tfe_ew_data(x);
  in[1] = tfe_ew_data(y);
  /* Reuse an input's buffer as tfe_ew_forward_or_alloc does: same dtype
   * and element count hold here by construction. */
  for (c = 0; c < 1 + full_y && k->forwardable != 0; c++) {
    TF_Tensor* t = k->inputs[c];
    const tfe_tensor_buffer* b = t->buf;
    if ((k->forwardable & ((uint64_t)1 << c)) == 0 ||
        (k->input_refs != NULL && k->input_refs[c] != NULL) || b == NULL ||
        !b->owns_memory || b->data == NULL ||
        atomic_load_explicit(&((tfe_tensor_buffer*)b)->refcount,
                             memory_order_acquire) != 1) {
      continue;
    }
    if (ew_take_input(k, c)) {
      out = t;
    } else {
      out = tfe_tensor_from_buffer(dt, x->dims, nd, t->buf);
      if (out == NULL) break; /* out of memory: let allocation report it */
    }
    if (k->outputs[0] != NULL && k->outputs[0] != out) {
      TF_DeleteTensor(k->outputs[0]);
    }
    k->outputs[0] = out;
    k->forwarded |= (uint64_t)1 << c;
    break;
  }
  if (out == NULL) {
    out = tfe_kernel_alloc_output(k, 0, dt, x->dims, nd);
    if (out == NULL) return 1;
  }
  /* What tfe_bcast_init would give: one axis of n elements. */
  bc.num_inputs = 2;
  bc.out_rank = nd;
  for (i = 0; i < nd; i++) bc.out_dims[i] = out->dims[i];
  bc.out_elems = n;
  bc.in_elems[0] = n;
  bc.in_elems[1] = full_y ? n : 1;
  bc.rank = 1;
  bc.dims[0] = n;
  bc.strides[0][0] = 1;
  bc.strides[1][0] = full_y;
  prm.alpha = 0;
  prm.alpha_f = 0;
  if (fn(&bc, in, tfe_ew_data(out), 0, n, &prm)) {
    tfe_status_setf(k->status, op->err_code ? op->err_code : TF_INTERNAL,
                    "%s", op->err_msg ? op->err_msg : "elementwise error");
  }
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
  if (op != NULL && ew_binary_simple(k, op)) return;
  memset(&prm, 0, sizeof prm);
  if (op == NULL || !ew_inputs_ok(k, op->num_inputs)) {
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
    err = ew_run(k, fn, NULL, in, tfe_ew_data(out), tfe_ew_num_elements(x),
                 &prm, chunk);
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
    err = ew_run(k, fn, &bc, in, tfe_ew_data(out), bc.out_elems, &prm, chunk);
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
