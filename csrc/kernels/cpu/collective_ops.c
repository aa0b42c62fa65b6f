/* CPU kernels of the collective ops: CollectiveReduce, CollectiveGather,
 * CollectiveBcastSend/Recv (version 1: group and instance from attrs),
 * CollectiveReduceV2, CollectiveGatherV2, CollectiveBcastSendV2/RecvV2,
 * CollectiveReduceScatterV2, CollectiveAllToAllV2 (version 2: from int32
 * scalar inputs), CollectiveInitializeCommunicator with CollectiveReduceV3
 * and CollectiveAllToAllV3 (version 3: from a communicator resource) and
 * CollectiveAssignGroupV2. They
 * check their arguments as TF's kernels do and hand over to the in-process
 * rendezvous (collective_rendezvous.c, model in collective.h). */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "kernels/cpu/collective.h"
#include "kernels/cpu/kutil.h"
#include "kernels/resource.h"

void tfe_register_collective_kernels(void);

/* Largest rank of a gathered or received tensor. */
#define COLL_MAX_DIMS 64

static const char* attr_string(const tfe_kernel_context* k, const char* name) {
  const char* s = NULL;
  size_t len = 0;
  if (k->attrs == NULL ||
      !tfe_attrs_get_string(k->attrs, name, &s, &len, NULL)) {
    return "";
  }
  return s;
}

static float attr_float(const tfe_kernel_context* k, const char* name) {
  float v = 0;
  if (k->attrs != NULL) tfe_attrs_get_float(k->attrs, name, &v, NULL);
  return v;
}

static TF_DataType attr_type(const tfe_kernel_context* k, const char* name) {
  TF_DataType t = (TF_DataType)0;
  if (k->attrs != NULL) tfe_attrs_get_type(k->attrs, name, &t, NULL);
  return t;
}

/* group_size > 0, as TF requires. */
static int check_group_size(tfe_kernel_context* k, int64_t group_size) {
  if (group_size <= 0 || group_size > INT32_MAX) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "group_size must be positive integer but got %lld",
               (long long)group_size);
    return 0;
  }
  return 1;
}

/* Merge and final ops by name (the op registry already limits them to
 * TF's allowed values). */
static int read_merge_op(tfe_kernel_context* k, const char* attr,
                         tfe_coll_request* r) {
  const char* merge = attr_string(k, attr);
  if (strcmp(merge, "Add") == 0) {
    r->merge_op = TFE_COLL_ADD;
  } else if (strcmp(merge, "Mul") == 0) {
    r->merge_op = TFE_COLL_MUL;
  } else if (strcmp(merge, "Min") == 0) {
    r->merge_op = TFE_COLL_MIN;
  } else if (strcmp(merge, "Max") == 0) {
    r->merge_op = TFE_COLL_MAX;
  } else {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "%s must be one of {\"Min\", \"Max\", \"Mul\", \"Add\"} "
               "but got %s",
               attr, merge);
    return 0;
  }
  return 1;
}

static int read_reduce_ops(tfe_kernel_context* k, tfe_coll_request* r) {
  const char* final_op = attr_string(k, "final_op");
  if (!read_merge_op(k, "merge_op", r)) return 0;
  if (strcmp(final_op, "Id") == 0) {
    r->final_op = TFE_COLL_ID;
  } else if (strcmp(final_op, "Div") == 0) {
    r->final_op = TFE_COLL_DIV;
  } else {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "final_op must be one of {\"Id\", \"Div\"} but got %s",
               final_op);
    return 0;
  }
  return 1;
}

/* Version 1: group_size, group_key and instance_key attrs. */
static int read_v1_keys(tfe_kernel_context* k, tfe_coll_request* r) {
  int32_t size, gkey, ikey;
  if (!kutil_attr_int32(k, "group_size", 0, &size) ||
      !kutil_attr_int32(k, "group_key", 0, &gkey) ||
      !kutil_attr_int32(k, "instance_key", 0, &ikey)) {
    return 0;
  }
  if (!check_group_size(k, size)) return 0;
  r->group_size = size;
  r->group_key = gkey;
  r->instance_key = ikey;
  return 1;
}

/* Version 2: inputs first..first+2 are the int32 scalars group_size,
 * group_key and instance_key. */
static int read_v2_keys(tfe_kernel_context* k, int first,
                        tfe_coll_request* r) {
  static const char* const names[3] = {"group_size", "group_key",
                                       "instance_key"};
  int32_t v[3];
  int i;
  for (i = 0; i < 3; i++) {
    const TF_Tensor* t = k->inputs[first + i];
    if (t->num_dims > 0) {
      kutil_shape_buf b;
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Unexpected dimensions on input %s, got %s", names[i],
                 kutil_tshape(t, &b));
      return 0;
    }
    v[i] = (int32_t)kutil_get_int(t, 0);
  }
  if (!check_group_size(k, v[0])) return 0;
  r->group_size = v[0];
  r->group_key = v[1];
  r->instance_key = v[2];
  return 1;
}

static void init_request(tfe_kernel_context* k, tfe_coll_request* r,
                         int kind) {
  memset(r, 0, sizeof(*r));
  r->user_rank = -1;
  r->kind = kind;
  r->dtype = attr_type(k, "T");
  r->timeout_seconds = attr_float(k, "timeout_seconds");
}

/* ---- reductions ---- */

static void reduce_common(tfe_kernel_context* k, tfe_coll_request* r) {
  const TF_Tensor* x = k->inputs[0];
  if (!read_reduce_ops(k, r)) return;
  r->input = x;
  r->dims = x->dims;
  r->num_dims = x->num_dims;
  tfe_collective_run(k, r);
}

static void reduce_v1_compute(tfe_kernel_context* k) {
  tfe_coll_request r;
  init_request(k, &r, TFE_COLL_REDUCE);
  if (!read_v1_keys(k, &r)) return;
  reduce_common(k, &r);
}

static void reduce_v2_compute(tfe_kernel_context* k) {
  tfe_coll_request r;
  init_request(k, &r, TFE_COLL_REDUCE);
  if (!read_v2_keys(k, 1, &r)) return;
  reduce_common(k, &r);
}

/* Reduce-scatter and all-to-all split dimension 0 in group_size blocks. */
static int check_splittable(tfe_kernel_context* k, const TF_Tensor* x,
                            int32_t group_size, const char* what) {
  if (x->num_dims < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "input should have rank > 0, received %d", x->num_dims);
    return 0;
  }
  if (x->num_dims > COLL_MAX_DIMS) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED, "collective %s of a tensor of rank %d "
               "(at most %d)", what, x->num_dims, COLL_MAX_DIMS);
    return 0;
  }
  if (x->dims[0] % group_size != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "%s needs dimension 0 of the input (%lld) to be a multiple of "
               "group_size (%d)",
               what, (long long)x->dims[0], (int)group_size);
    return 0;
  }
  return 1;
}

static void reduce_scatter_v2_compute(tfe_kernel_context* k) {
  tfe_coll_request r;
  const TF_Tensor* x = k->inputs[0];
  int64_t dims[COLL_MAX_DIMS];
  int i;
  init_request(k, &r, TFE_COLL_REDUCE_SCATTER);
  if (!read_v2_keys(k, 1, &r) || !read_reduce_ops(k, &r)) return;
  if (!check_splittable(k, x, r.group_size, "reduce-scatter")) return;
  /* The output: block `rank` of the reduction along dimension 0. */
  for (i = 0; i < x->num_dims; i++) dims[i] = x->dims[i];
  dims[0] /= r.group_size;
  r.input = x;
  r.dims = dims;
  r.num_dims = x->num_dims;
  tfe_collective_run(k, &r);
}

static void all_to_all_v2_compute(tfe_kernel_context* k) {
  tfe_coll_request r;
  const TF_Tensor* x = k->inputs[0];
  init_request(k, &r, TFE_COLL_ALL_TO_ALL);
  if (!read_v2_keys(k, 1, &r)) return;
  if (!check_splittable(k, x, r.group_size, "all-to-all")) return;
  r.input = x;
  r.dims = x->dims;
  r.num_dims = x->num_dims;
  tfe_collective_run(k, &r);
}

/* ---- gathers ---- */

static void gather_common(tfe_kernel_context* k, tfe_coll_request* r) {
  const TF_Tensor* x = k->inputs[0];
  int64_t dims[COLL_MAX_DIMS];
  int i;
  if (x->num_dims < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input should have rank > 0, received %d",
               x->num_dims);
    return;
  }
  if (x->num_dims > COLL_MAX_DIMS) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED,
               "collective gather of a tensor of rank %d (at most %d)",
               x->num_dims, COLL_MAX_DIMS);
    return;
  }
  /* The output: group_size blocks of the input along dimension 0. */
  for (i = 0; i < x->num_dims; i++) dims[i] = x->dims[i];
  dims[0] *= r->group_size;
  r->input = x;
  r->dims = dims;
  r->num_dims = x->num_dims;
  tfe_collective_run(k, r);
}

static void gather_v1_compute(tfe_kernel_context* k) {
  tfe_coll_request r;
  init_request(k, &r, TFE_COLL_GATHER);
  if (!read_v1_keys(k, &r)) return;
  gather_common(k, &r);
}

static void gather_v2_compute(tfe_kernel_context* k) {
  tfe_coll_request r;
  init_request(k, &r, TFE_COLL_GATHER);
  if (!read_v2_keys(k, 1, &r)) return;
  gather_common(k, &r);
}

/* ---- broadcasts ---- */

static int same_shape(const TF_Tensor* t, const tfe_shape* s) {
  int i;
  if (s == NULL || s->num_dims != t->num_dims) return 0;
  for (i = 0; i < s->num_dims; i++) {
    if (s->dims[i] != t->dims[i]) return 0;
  }
  return 1;
}

static void send_common(tfe_kernel_context* k, tfe_coll_request* r) {
  const TF_Tensor* x = k->inputs[0];
  r->is_source = 1;
  r->input = x;
  r->dims = x->dims;
  r->num_dims = x->num_dims;
  tfe_collective_run(k, r);
}

static void send_v1_compute(tfe_kernel_context* k) {
  tfe_coll_request r;
  const tfe_shape* shape = NULL;
  init_request(k, &r, TFE_COLL_BCAST);
  if (!read_v1_keys(k, &r)) return;
  if (k->attrs != NULL) tfe_attrs_get_shape(k->attrs, "shape", &shape, NULL);
  if (!same_shape(k->inputs[0], shape)) {
    KUTIL_FAIL(k, TF_INTERNAL,
               "Declared shape of op %s: Broadcast(1) does not match shape "
               "of input",
               k->op_def != NULL ? k->op_def->name : "CollectiveBcastSend");
    return;
  }
  send_common(k, &r);
}

static void send_v2_compute(tfe_kernel_context* k) {
  tfe_coll_request r;
  init_request(k, &r, TFE_COLL_BCAST);
  if (!read_v2_keys(k, 1, &r)) return;
  send_common(k, &r);
}

static void recv_v1_compute(tfe_kernel_context* k) {
  tfe_coll_request r;
  const tfe_shape* shape = NULL;
  int i;
  init_request(k, &r, TFE_COLL_BCAST);
  if (!read_v1_keys(k, &r)) return;
  if (k->attrs != NULL) tfe_attrs_get_shape(k->attrs, "shape", &shape, NULL);
  if (shape == NULL || shape->num_dims < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "CollectiveBcastRecv needs a fully defined shape attr");
    return;
  }
  for (i = 0; i < shape->num_dims; i++) {
    if (shape->dims[i] < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "CollectiveBcastRecv needs a fully defined shape attr");
      return;
    }
  }
  r.dims = shape->dims;
  r.num_dims = shape->num_dims;
  tfe_collective_run(k, &r);
}

static void recv_v2_compute(tfe_kernel_context* k) {
  tfe_coll_request r;
  const TF_Tensor* shape_t = k->inputs[3];
  int64_t dims[COLL_MAX_DIMS];
  int64_t i, n;
  init_request(k, &r, TFE_COLL_BCAST);
  if (!read_v2_keys(k, 0, &r)) return;
  if (shape_t->num_dims > 1) {
    kutil_shape_buf b;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "shape must be a vector, got shape %s",
               kutil_tshape(shape_t, &b));
    return;
  }
  n = kutil_num_elements(shape_t);
  if (n > COLL_MAX_DIMS) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED,
               "collective broadcast of a tensor of rank %lld (at most %d)",
               (long long)n, COLL_MAX_DIMS);
    return;
  }
  for (i = 0; i < n; i++) {
    dims[i] = kutil_get_int(shape_t, i);
    if (dims[i] < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Dimension %lld must be >= 0, got %lld", (long long)i,
                 (long long)dims[i]);
      return;
    }
  }
  r.dims = dims;
  r.num_dims = (int)n;
  tfe_collective_run(k, &r);
}

/* ---- communicators: CollectiveInitializeCommunicator and the V3 ops ----
 * A communicator is a resource (container "collective_op_group", name
 * "<group_key>:r<rank>", as in TF) holding the member's group, its rank
 * and the next instance key of its V3 collectives. */

typedef struct coll_comm {
  int32_t group_key, rank, group_size;
  float timeout_seconds;
  atomic_int next_instance;
} coll_comm;

static void comm_delete(void* p) { tfe_free(p); }

static int scalar_input(tfe_kernel_context* k, int index, const char* name,
                        int32_t* out) {
  const TF_Tensor* t = k->inputs[index];
  if (t->num_dims > 0) {
    kutil_shape_buf b;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Unexpected dimensions on input %s. It shoulbe a scalar, got "
               "tensor with shape %s",
               name, kutil_tshape(t, &b));
    return 0;
  }
  *out = (int32_t)kutil_get_int(t, 0);
  return 1;
}

static void init_communicator_compute(tfe_kernel_context* k) {
  int32_t group_key, rank, group_size;
  char name[64];
  coll_comm* comm;
  tfe_resource* res;
  tfe_coll_request r;
  TF_Tensor* handle;
  if (!scalar_input(k, 2, "group_size", &group_size) ||
      !scalar_input(k, 0, "group_key", &group_key) ||
      !scalar_input(k, 1, "rank", &rank)) {
    return;
  }
  if (!check_group_size(k, group_size)) return;
  if (rank < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "rank must be non-negative integer but got %d", (int)rank);
    return;
  }
  if (rank >= group_size) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "rank must be less than group size but got %d >= %d",
               (int)rank, (int)group_size);
    return;
  }
  comm = (coll_comm*)tfe_calloc(1, sizeof(*comm));
  if (comm == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED,
               "out of memory in CollectiveInitializeCommunicator");
    return;
  }
  comm->group_key = group_key;
  comm->rank = rank;
  comm->group_size = group_size;
  comm->timeout_seconds = attr_float(k, "timeout_seconds");
  atomic_init(&comm->next_instance, 0);
  snprintf(name, sizeof name, "%d:r%04d", (int)group_key, (int)rank);
  res = tfe_plugin_resource_new(tfe_resource_kernel_ctx_id(k),
                                k->device_name, "collective_op_group", name,
                                comm, comm_delete);
  if (res == NULL) {
    comm_delete(comm);
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED,
               "out of memory in CollectiveInitializeCommunicator");
    return;
  }
  if (!tfe_resources_insert(res, k->status)) {
    tfe_resource_unref(res);
    return;
  }
  /* Wait for the whole group, as TF's kernel does. */
  memset(&r, 0, sizeof r);
  r.kind = TFE_COLL_BARRIER;
  r.group_size = group_size;
  r.group_key = group_key;
  r.instance_key = TFE_COLL_BARRIER_INSTANCE;
  r.dtype = TF_FLOAT;
  r.user_rank = rank;
  r.timeout_seconds = comm->timeout_seconds;
  tfe_collective_run(k, &r);
  if (KUTIL_OK(k)) {
    handle = tfe_resource_new_handle(res);
    if (handle == NULL) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED,
                 "out of memory in CollectiveInitializeCommunicator");
    } else {
      tfe_kernel_set_output(k, 0, handle);
    }
  }
  tfe_resource_unref(res);
}

/* Fills r from communicator input 1 and group_assignment input 2; the
 * communicator (a new reference) in *out. */
static int read_communicator(tfe_kernel_context* k, tfe_coll_request* r,
                             tfe_resource** out) {
  tfe_resource* h = tfe_resource_of_tensor(k->inputs[1]);
  tfe_resource* res = h != NULL ? tfe_resources_lookup_handle(h) : NULL;
  const coll_comm* comm;
  float timeout = r->timeout_seconds;
  *out = NULL;
  if (res == NULL || res->kind != TFE_RESOURCE_PLUGIN ||
      res->del != comm_delete) {
    KUTIL_FAIL(k, h == NULL ? TF_INVALID_ARGUMENT : TF_NOT_FOUND,
               "the communicator input is not a communicator made by "
               "CollectiveInitializeCommunicator (or it is gone)");
    tfe_resource_unref(res);
    return 0;
  }
  if (kutil_num_elements(k->inputs[2]) != 0) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED, "Group assignments are not supported yet.");
    tfe_resource_unref(res);
    return 0;
  }
  comm = (const coll_comm*)res->object;
  r->group_size = comm->group_size;
  r->group_key = comm->group_key;
  r->user_rank = comm->rank;
  r->instance_key =
      atomic_fetch_add(&((coll_comm*)res->object)->next_instance, 1);
  r->timeout_seconds = timeout > 0 ? comm->timeout_seconds : timeout;
  *out = res;
  return 1;
}

static void reduce_v3_compute(tfe_kernel_context* k) {
  tfe_coll_request r;
  tfe_resource* res;
  const TF_Tensor* x = k->inputs[0];
  init_request(k, &r, TFE_COLL_REDUCE);
  r.final_op = TFE_COLL_ID;
  if (!read_merge_op(k, "reduction", &r)) return;
  if (!read_communicator(k, &r, &res)) return;
  r.input = x;
  r.dims = x->dims;
  r.num_dims = x->num_dims;
  tfe_collective_run(k, &r);
  tfe_resource_unref(res);
}

static void all_to_all_v3_compute(tfe_kernel_context* k) {
  tfe_coll_request r;
  tfe_resource* res;
  const TF_Tensor* x = k->inputs[0];
  init_request(k, &r, TFE_COLL_ALL_TO_ALL);
  if (!read_communicator(k, &r, &res)) return;
  if (check_splittable(k, x, r.group_size, "all-to-all")) {
    r.input = x;
    r.dims = x->dims;
    r.num_dims = x->num_dims;
    tfe_collective_run(k, &r);
  }
  tfe_resource_unref(res);
}

/* ---- CollectiveAssignGroupV2 ---- */

static void assign_group_compute(tfe_kernel_context* k) {
  const TF_Tensor* ga = k->inputs[0];
  const TF_Tensor* di = k->inputs[1];
  const TF_Tensor* bk = k->inputs[2];
  const int32_t* a;
  int32_t device_index, base_key;
  int64_t groups, size, g, c;
  TF_Tensor *out_size, *out_key;
  kutil_shape_buf b;
  if (di->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "device_index must be a scalar, but received tensor of shape: "
               "%s",
               kutil_tshape(di, &b));
    return;
  }
  if (ga->num_dims != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "group_assignment must be a 2-d Tensor, but received tensor of "
               "shape: %s",
               kutil_tshape(ga, &b));
    return;
  }
  if (bk->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "base_key must be a scalar, but received tensor of shape: %s",
               kutil_tshape(bk, &b));
    return;
  }
  out_size = tfe_kernel_alloc_output(k, 0, TF_INT32, NULL, 0);
  if (out_size == NULL) return;
  out_key = tfe_kernel_alloc_output(k, 1, TF_INT32, NULL, 0);
  if (out_key == NULL) return;
  a = (const int32_t*)kutil_data(ga);
  groups = ga->dims[0];
  size = ga->dims[1];
  device_index = *(const int32_t*)kutil_data(di);
  base_key = *(const int32_t*)kutil_data(bk);
  *(int32_t*)kutil_data(out_size) = (int32_t)size;
  for (g = 0; g < groups; g++) {
    int32_t key = (int32_t)((uint32_t)base_key + (uint32_t)g);
    if (key == 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Using the reserved group_key = 0 is not allowed: group_id "
                 "= %lld, base_key = %d",
                 (long long)g, (int)base_key);
      return;
    }
    for (c = 0; c < size; c++) {
      int32_t index = a[g * size + c];
      if (index < 0 || index >= groups * size) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "Not all items in group_assignment are within [0, number "
                   "of devices)");
        return;
      }
      if (index == device_index) {
        *(int32_t*)kutil_data(out_key) = key;
        return;
      }
    }
  }
  KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
             "device_index %d is not found in group_assignment",
             (int)device_index);
}

void tfe_register_collective_kernels(void) {
  static const TF_DataType reduce_types[] = {TF_BFLOAT16, TF_FLOAT, TF_HALF,
                                             TF_DOUBLE,   TF_INT32, TF_INT64};
  static const TF_DataType gather_types[] = {TF_FLOAT, TF_HALF, TF_DOUBLE,
                                             TF_INT32, TF_INT64};
  static const TF_DataType bcast_types[] = {TF_BOOL,  TF_FLOAT, TF_HALF,
                                            TF_DOUBLE, TF_INT32, TF_INT64};
  const int nr = KUTIL_COUNT(reduce_types), ng = KUTIL_COUNT(gather_types),
            nb = KUTIL_COUNT(bcast_types);
  tfe_kutil_register("CollectiveReduce", reduce_v1_compute, "T", reduce_types,
                     nr, NULL, NULL, 0);
  tfe_kutil_register("CollectiveReduceV2", reduce_v2_compute, "T",
                     reduce_types, nr, NULL, NULL, 0);
  tfe_kutil_register("CollectiveGather", gather_v1_compute, "T", gather_types,
                     ng, NULL, NULL, 0);
  tfe_kutil_register("CollectiveGatherV2", gather_v2_compute, "T",
                     gather_types, ng, NULL, NULL, 0);
  tfe_kutil_register("CollectiveBcastSend", send_v1_compute, "T", bcast_types,
                     nb, NULL, NULL, 0);
  tfe_kutil_register("CollectiveBcastSendV2", send_v2_compute, "T",
                     bcast_types, nb, NULL, NULL, 0);
  tfe_kutil_register("CollectiveBcastRecv", recv_v1_compute, "T", bcast_types,
                     nb, NULL, NULL, 0);
  tfe_kutil_register("CollectiveBcastRecvV2", recv_v2_compute, "T",
                     bcast_types, nb, NULL, NULL, 0);
  tfe_kutil_register("CollectiveReduceScatterV2", reduce_scatter_v2_compute,
                     "T", reduce_types, nr, NULL, NULL, 0);
  tfe_kutil_register("CollectiveAllToAllV2", all_to_all_v2_compute, "T",
                     reduce_types, nr, NULL, NULL, 0);
  tfe_kutil_register("CollectiveAssignGroupV2", assign_group_compute, NULL,
                     NULL, 0, NULL, NULL, 0);
  tfe_kutil_register("CollectiveInitializeCommunicator",
                     init_communicator_compute, NULL, NULL, 0, NULL, NULL, 0);
  tfe_kutil_register("CollectiveReduceV3", reduce_v3_compute, "T",
                     reduce_types, nr, NULL, NULL, 0);
  tfe_kutil_register("CollectiveAllToAllV3", all_to_all_v3_compute, "T",
                     reduce_types, nr, NULL, NULL, 0);
}
