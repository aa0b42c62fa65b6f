/* Resource-variable kernels: VarHandleOp handles (device, dtype, shape),
 * assign/read/update semantics with copy-on-write values, gathers and
 * scatters, destroy, and TensorFlow 2.21's error codes and messages for
 * uninitialized/deleted variables and dtype/shape mismatches. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>

#include "kernel_test_util.h"
#include "kernels/resource.h"

static TF_Status* S;
static tfe_attrs A;
static TF_Tensor* OUT[KT_MAX_IO];

static void begin(void) {
  if (S == NULL) S = TF_NewStatus();
  tfe_attrs_destroy(&A);
  tfe_attrs_init(&A);
}

static TF_Tensor* dup(const TF_Tensor* t) {
  return tfe_tensor_from_buffer(t->dtype, t->dims, t->num_dims, t->buf);
}

/* New handle for (container, name) with the declared dtype and shape. */
static TF_Tensor* handle(const char* container, const char* name,
                         TF_DataType dt, const int64_t* dims, int nd) {
  TF_Tensor* h;
  begin();
  kt_attr_string(&A, "container", container);
  kt_attr_string(&A, "shared_name", name);
  kt_attr_type(&A, "dtype", dt);
  kt_attr_shape(&A, "shape", dims, nd);
  CHECK_EQ_INT(kt_run("VarHandleOp", &A, NULL, 0, OUT, S), 1);
  h = OUT[0];
  OUT[0] = NULL;
  CHECK(h->dtype == TF_RESOURCE && h->num_dims == 0);
  return h;
}

static int assign(const char* op, TF_Tensor* h, TF_Tensor* v) {
  TF_Tensor* in[2];
  begin();
  in[0] = dup(h);
  in[1] = v;
  kt_attr_type(&A, "dtype", v->dtype);
  return kt_run(op, &A, in, 2, OUT, S);
}

static TF_Tensor* read_var(TF_Tensor* h, TF_DataType dt) {
  TF_Tensor* in[1];
  begin();
  in[0] = dup(h);
  kt_attr_type(&A, "dtype", dt);
  if (kt_run("ReadVariableOp", &A, in, 1, OUT, S) != 1) return NULL;
  return OUT[0];
}

static int is_init(TF_Tensor* h) {
  TF_Tensor* in[1];
  int v;
  begin();
  in[0] = dup(h);
  CHECK_EQ_INT(kt_run("VarIsInitializedOp", &A, in, 1, OUT, S), 1);
  v = *(unsigned char*)TF_TensorData(OUT[0]);
  TF_DeleteTensor(OUT[0]);
  return v;
}

static int destroy(TF_Tensor* h, int ignore) {
  TF_Tensor* in[1];
  begin();
  in[0] = dup(h);
  kt_attr_bool(&A, "ignore_lookup_error", ignore);
  return kt_run("DestroyResourceOp", &A, in, 1, OUT, S);
}

TEST(handle_remembers_device_dtype_and_shape) {
  TF_Tensor* h = handle("", "hv", TF_FLOAT, KT_DIMS(2, 3));
  TF_Tensor* h2 = handle("", "hv", TF_FLOAT, KT_DIMS(2, 3));
  tfe_resource* r = tfe_resource_of_tensor(h);
  CHECK(r != NULL);
  CHECK_STR_EQ(r->container, "localhost"); /* TF's default eager container */
  CHECK_STR_EQ(r->name, "hv");
  CHECK_STR_EQ(r->device, "/job:localhost/replica:0/task:0/device:CPU:0");
  CHECK_EQ_INT(r->dtype, TF_FLOAT);
  CHECK_EQ_INT(r->decl_rank, 2);
  CHECK(r->decl_dims[0] == 2 && r->decl_dims[1] == 3);
  /* the same name gives the same variable */
  CHECK(tfe_resource_of_tensor(h2) == r);
  CHECK(!is_init(h));
  TF_DeleteTensor(h);
  TF_DeleteTensor(h2);
}

TEST(assign_read_update_semantics) {
  TF_Tensor* h = handle("c", "v", TF_FLOAT, KT_DIMS(2));
  TF_Tensor *r1, *r2;
  CHECK_EQ_INT(assign("AssignVariableOp", h, kt_vec(TF_FLOAT, 2, KT_V(1, 2))), 0);
  CHECK_CODE(S, TF_OK);
  CHECK(is_init(h));
  r1 = read_var(h, TF_FLOAT);
  KT_CHECK(r1, TF_FLOAT, KT_DIMS(2), KT_V(1, 2));
  /* an update after a read must not change what the reader holds */
  CHECK_EQ_INT(assign("AssignAddVariableOp", h, kt_vec(TF_FLOAT, 2, KT_V(10, 20))), 0);
  CHECK_CODE(S, TF_OK);
  KT_CHECK(r1, TF_FLOAT, KT_DIMS(2), KT_V(1, 2));
  r2 = read_var(h, TF_FLOAT);
  KT_CHECK(r2, TF_FLOAT, KT_DIMS(2), KT_V(11, 22));
  CHECK_EQ_INT(assign("AssignSubVariableOp", h, kt_vec(TF_FLOAT, 2, KT_V(1, 1))), 0);
  KT_CHECK(r2, TF_FLOAT, KT_DIMS(2), KT_V(11, 22));
  TF_DeleteTensor(r1);
  TF_DeleteTensor(r2);
  r1 = read_var(h, TF_FLOAT);
  KT_CHECK(r1, TF_FLOAT, KT_DIMS(2), KT_V(10, 21));
  TF_DeleteTensor(r1);
  /* assigning a new shape without validate_shape is allowed */
  CHECK_EQ_INT(assign("AssignVariableOp", h, kt_vec(TF_FLOAT, 3, KT_V(1, 2, 3))), 0);
  r1 = read_var(h, TF_FLOAT);
  KT_CHECK(r1, TF_FLOAT, KT_DIMS(3), KT_V(1, 2, 3));
  TF_DeleteTensor(r1);
  /* integer wrap-around and every number dtype */
  {
    static const TF_DataType kTypes[] = {TF_INT8, TF_INT16, TF_INT32, TF_INT64,
                                         TF_UINT8, TF_UINT16, TF_UINT32,
                                         TF_UINT64, TF_DOUBLE, TF_HALF,
                                         TF_BFLOAT16, TF_COMPLEX64,
                                         TF_COMPLEX128};
    size_t i;
    for (i = 0; i < sizeof kTypes / sizeof kTypes[0]; i++) {
      char name[32];
      TF_Tensor* hv;
      snprintf(name, sizeof name, "t%d", (int)kTypes[i]);
      hv = handle("c", name, kTypes[i], KT_DIMS(2));
      CHECK_EQ_INT(assign("AssignVariableOp", hv, kt_vec(kTypes[i], 2, KT_V(5, 7))), 0);
      CHECK_EQ_INT(assign("AssignAddVariableOp", hv, kt_vec(kTypes[i], 2, KT_V(2, 3))), 0);
      CHECK_CODE(S, TF_OK);
      CHECK_EQ_INT(assign("AssignSubVariableOp", hv, kt_vec(kTypes[i], 2, KT_V(1, 1))), 0);
      r1 = read_var(hv, kTypes[i]);
      KT_CHECK(r1, kTypes[i], KT_DIMS(2), KT_V(6, 9));
      TF_DeleteTensor(r1);
      TF_DeleteTensor(hv);
    }
  }
  {
    TF_Tensor* hi = handle("c", "wrap", TF_INT8, KT_DIMS(1));
    CHECK_EQ_INT(assign("AssignVariableOp", hi, kt_vec(TF_INT8, 1, KT_V(127))), 0);
    CHECK_EQ_INT(assign("AssignAddVariableOp", hi, kt_vec(TF_INT8, 1, KT_V(1))), 0);
    r1 = read_var(hi, TF_INT8);
    KT_CHECK(r1, TF_INT8, KT_DIMS(1), KT_V(-128));
    TF_DeleteTensor(r1);
    TF_DeleteTensor(hi);
  }
  /* string variables: assign and read (no arithmetic) */
  {
    TF_Tensor* hs = handle("c", "s", TF_STRING, NULL, 0);
    TF_Tensor* v = TF_AllocateTensor(TF_STRING, NULL, 0, sizeof(TF_TString));
    TF_TString_Copy((TF_TString*)TF_TensorData(v), "ab", 2);
    CHECK_EQ_INT(assign("AssignVariableOp", hs, v), 0);
    r1 = read_var(hs, TF_STRING);
    CHECK(r1 != NULL);
    CHECK_EQ_INT(TF_TString_GetSize((TF_TString*)TF_TensorData(r1)), 2);
    TF_DeleteTensor(r1);
    TF_DeleteTensor(hs);
  }
  TF_DeleteTensor(h);
}

TEST(uninitialized_and_destroyed_variables_fail_as_tf) {
  TF_Tensor* h = handle("", "u1", TF_FLOAT, KT_DIMS(2));
  TF_Tensor* hc = handle("c9", "u2", TF_FLOAT, KT_DIMS(2));
  TF_Tensor* in[3];
  CHECK(read_var(h, TF_FLOAT) == NULL);
  CHECK_CODE(S, TF_FAILED_PRECONDITION);
  CHECK_STR_CONTAINS(TF_Message(S),
                     "Could not find variable u1. This could mean that the "
                     "variable has been deleted. In TF1, it can also mean the "
                     "variable is uninitialized. Debug info: "
                     "container=localhost, status error message=Container "
                     "localhost does not exist. (Could not find resource: "
                     "localhost/u1)");
  CHECK(read_var(hc, TF_FLOAT) == NULL);
  CHECK_STR_CONTAINS(TF_Message(S), "container=c9");
  CHECK_EQ_INT(assign("AssignAddVariableOp", h, kt_vec(TF_FLOAT, 2, KT_V(1, 2))), -1);
  CHECK_CODE(S, TF_NOT_FOUND);
  CHECK_STR_CONTAINS(TF_Message(S),
                     "Container localhost does not exist. (Could not find "
                     "resource: localhost/u1)");
  begin();
  in[0] = dup(h);
  in[1] = kt_vec(TF_INT32, 1, KT_V(0));
  kt_attr_type(&A, "dtype", TF_FLOAT);
  CHECK_EQ_INT(kt_run("ResourceGather", &A, in, 2, OUT, S), -1);
  CHECK_CODE(S, TF_NOT_FOUND);
  begin();
  in[0] = dup(h);
  in[1] = kt_vec(TF_INT32, 1, KT_V(0));
  in[2] = kt_vec(TF_FLOAT, 1, KT_V(1));
  CHECK_EQ_INT(kt_run("ResourceScatterAdd", &A, in, 3, OUT, S), -1);
  CHECK_CODE(S, TF_NOT_FOUND);
  CHECK_EQ_INT(destroy(hc, 0), -1);
  CHECK_CODE(S, TF_NOT_FOUND);
  CHECK_STR_CONTAINS(TF_Message(S), "Container c9 does not exist.");
  /* an uninitialized variable takes the dtype of its first assignment */
  CHECK_EQ_INT(assign("AssignVariableOp", h, kt_vec(TF_INT32, 2, KT_V(1, 2))), 0);
  CHECK_CODE(S, TF_OK);
  CHECK_EQ_INT(destroy(h, 0), 0);
  CHECK_CODE(S, TF_OK);
  CHECK(!is_init(h));
  CHECK(read_var(h, TF_INT32) == NULL);
  CHECK_CODE(S, TF_FAILED_PRECONDITION);
  CHECK_STR_CONTAINS(TF_Message(S),
                     "status error message=Resource "
                     "localhost/u1/N10tensorflow3VarE does not exist.");
  CHECK_EQ_INT(destroy(h, 0), -1);
  CHECK_CODE(S, TF_NOT_FOUND);
  CHECK_STR_CONTAINS(TF_Message(S), "Resource localhost/u1/<unknown> does not exist.");
  CHECK_EQ_INT(destroy(h, 1), 0);
  CHECK_CODE(S, TF_OK);
  /* the name can be assigned again after destruction */
  CHECK_EQ_INT(assign("AssignVariableOp", h, kt_vec(TF_FLOAT, 1, KT_V(4))), 0);
  CHECK(is_init(h));
  TF_DeleteTensor(h);
  TF_DeleteTensor(hc);
  /* a non-resource input */
  begin();
  in[0] = kt_scalar(TF_FLOAT, 1);
  kt_attr_type(&A, "dtype", TF_FLOAT);
  CHECK_EQ_INT(kt_run("ReadVariableOp", &A, in, 1, OUT, S), -1);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
}

TEST(dtype_and_shape_mismatches) {
  TF_Tensor* h = handle("", "m", TF_FLOAT, KT_DIMS(2));
  TF_Tensor* in[2];
  CHECK_EQ_INT(assign("AssignVariableOp", h, kt_vec(TF_FLOAT, 2, KT_V(1, 2))), 0);
  CHECK(read_var(h, TF_INT32) == NULL);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S),
                     "Trying to read variable with wrong dtype. Expected int32 got float");
  CHECK_EQ_INT(assign("AssignVariableOp", h, kt_vec(TF_INT32, 2, KT_V(1, 2))), -1);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S),
                     "Trying to assign variable with wrong dtype. Expected float got int32");
  CHECK_EQ_INT(assign("AssignAddVariableOp", h, kt_vec(TF_INT32, 2, KT_V(1, 2))), -1);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "DType of variable handle and value does not match.");
  CHECK_EQ_INT(assign("AssignSubVariableOp", h, kt_vec(TF_FLOAT, 3, KT_V(1, 2, 3))), -1);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S),
                     "Cannot update variable with shape [2] using a Tensor with "
                     "shape [3], shapes must be equal.");
  begin();
  in[0] = dup(h);
  in[1] = kt_vec(TF_FLOAT, 4, KT_V(1, 2, 3, 4));
  kt_attr_type(&A, "dtype", TF_FLOAT);
  kt_attr_bool(&A, "validate_shape", 1);
  CHECK_EQ_INT(kt_run("AssignVariableOp", &A, in, 2, OUT, S), -1);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S),
                     "Trying to assign to variable with tensor with wrong "
                     "shape. Expected [2] got [4]");
  TF_DeleteTensor(h);
}

static int gather(TF_Tensor* h, TF_Tensor* idx, int batch_dims) {
  TF_Tensor* in[2];
  begin();
  in[0] = dup(h);
  in[1] = idx;
  kt_attr_type(&A, "dtype", TF_FLOAT);
  kt_attr_int(&A, "batch_dims", batch_dims);
  return kt_run("ResourceGather", &A, in, 2, OUT, S);
}

static int scatter(const char* op, TF_Tensor* h, TF_Tensor* idx,
                   TF_Tensor* upd) {
  TF_Tensor* in[3];
  begin();
  in[0] = dup(h);
  in[1] = idx;
  in[2] = upd;
  return kt_run(op, &A, in, 3, OUT, S);
}

TEST(gather_and_scatter) {
  TF_Tensor* h = handle("", "g", TF_FLOAT, KT_DIMS(3, 2));
  TF_Tensor* r;
  CHECK_EQ_INT(assign("AssignVariableOp", h,
                      kt_tensor(TF_FLOAT, KT_DIMS(3, 2), KT_V(1, 2, 3, 4, 5, 6))), 0);
  CHECK_EQ_INT(gather(h, kt_tensor(TF_INT32, KT_DIMS(1, 2), KT_V(2, 0)), 0), 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(1, 2, 2), KT_V(5, 6, 1, 2));
  TF_DeleteTensor(OUT[0]);
  CHECK_EQ_INT(gather(h, kt_tensor(TF_INT64, KT_DIMS(3, 1), KT_V(1, 0, 1)), 1), 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(3, 1), KT_V(2, 3, 6));
  TF_DeleteTensor(OUT[0]);
  CHECK_EQ_INT(gather(h, kt_vec(TF_INT32, 1, KT_V(5)), 0), -1);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "indices[0] = 5 is not in [0, 3)");
  CHECK_EQ_INT(gather(h, kt_tensor(TF_INT32, KT_DIMS(2, 2), KT_V(0, 1, 2, -1)), 0), -1);
  CHECK_STR_CONTAINS(TF_Message(S), "indices[1,1] = -1 is not in [0, 3)");
  /* a reader's tensor is unaffected by later scatters */
  r = read_var(h, TF_FLOAT);
  CHECK_EQ_INT(scatter("ResourceScatterUpdate", h, kt_vec(TF_INT32, 1, KT_V(1)),
                       kt_tensor(TF_FLOAT, KT_DIMS(1, 2), KT_V(9, 9))), 0);
  CHECK_CODE(S, TF_OK);
  KT_CHECK(r, TF_FLOAT, KT_DIMS(3, 2), KT_V(1, 2, 3, 4, 5, 6));
  TF_DeleteTensor(r);
  CHECK_EQ_INT(scatter("ResourceScatterAdd", h, kt_vec(TF_INT64, 2, KT_V(0, 0)),
                       kt_tensor(TF_FLOAT, KT_DIMS(2, 2), KT_V(1, 1, 1, 1))), 0);
  CHECK_EQ_INT(scatter("ResourceScatterAdd", h, kt_vec(TF_INT32, 2, KT_V(0, 2)),
                       kt_scalar(TF_FLOAT, 10)), 0);
  r = read_var(h, TF_FLOAT);
  KT_CHECK(r, TF_FLOAT, KT_DIMS(3, 2), KT_V(13, 14, 9, 9, 15, 16));
  TF_DeleteTensor(r);
  /* errors, checked before anything changes */
  CHECK_EQ_INT(scatter("ResourceScatterAdd", h, kt_vec(TF_INT32, 2, KT_V(0, 7)),
                       kt_tensor(TF_FLOAT, KT_DIMS(2, 2), KT_V(1, 1, 1, 1))), -1);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "indices[1] = 7 is not in [0, 3)");
  r = read_var(h, TF_FLOAT);
  KT_CHECK(r, TF_FLOAT, KT_DIMS(3, 2), KT_V(13, 14, 9, 9, 15, 16));
  TF_DeleteTensor(r);
  CHECK_EQ_INT(scatter("ResourceScatterUpdate", h, kt_vec(TF_INT32, 1, KT_V(0)),
                       kt_vec(TF_FLOAT, 2, KT_V(1, 2))), -1);
  CHECK_STR_CONTAINS(TF_Message(S),
                     "Must have updates.shape = indices.shape + "
                     "params.shape[1:] or updates.shape = [], got "
                     "updates.shape [2], indices.shape [1], params.shape [3,2]");
  CHECK_EQ_INT(scatter("ResourceScatterUpdate", h, kt_tensor(TF_INT32, KT_DIMS(1), KT_V(0)),
                       kt_tensor(TF_FLOAT, KT_DIMS(2, 2), KT_V(1, 2, 3, 4))), -1);
  CHECK_STR_CONTAINS(TF_Message(S),
                     "The shape of indices ([1]) must be a prefix of the shape "
                     "of updates ([2,2])");
  CHECK_EQ_INT(scatter("ResourceScatterAdd", h, kt_vec(TF_INT32, 1, KT_V(0)),
                       kt_tensor(TF_INT32, KT_DIMS(1, 2), KT_V(1, 2))), -1);
  CHECK_STR_CONTAINS(TF_Message(S), "DType of scatter resource and updates does not match.");
  TF_DeleteTensor(h);
}

typedef struct adder {
  TF_Tensor* h;
  int n;
} adder;

static void* add_many(void* p) {
  adder* a = (adder*)p;
  TF_Status* s = TF_NewStatus();
  int i;
  for (i = 0; i < a->n; i++) {
    tfe_attrs attrs;
    TF_Tensor* in[2];
    TF_Tensor* out[1];
    tfe_attrs_init(&attrs);
    in[0] = dup(a->h);
    in[1] = kt_vec(TF_INT64, 1, KT_V(1));
    kt_attr_type(&attrs, "dtype", TF_INT64);
    kt_run("AssignAddVariableOp", &attrs, in, 2, out, s);
    tfe_attrs_destroy(&attrs);
  }
  TF_DeleteStatus(s);
  return NULL;
}

TEST(concurrent_updates_are_atomic) {
  TF_Tensor* h = handle("", "counter", TF_INT64, KT_DIMS(1));
  pthread_t th[4];
  adder a;
  TF_Tensor* r;
  int i;
  CHECK_EQ_INT(assign("AssignVariableOp", h, kt_vec(TF_INT64, 1, KT_V(0))), 0);
  a.h = h;
  a.n = 500;
  for (i = 0; i < 4; i++) pthread_create(&th[i], NULL, add_many, &a);
  for (i = 0; i < 4; i++) pthread_join(th[i], NULL);
  r = read_var(h, TF_INT64);
  KT_CHECK(r, TF_INT64, KT_DIMS(1), KT_V(2000));
  TF_DeleteTensor(r);
  TF_DeleteTensor(h);
}

TFE_TEST_MAIN
