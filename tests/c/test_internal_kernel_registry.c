/* The kernel registry (csrc/kernels/registry.c) and the kernel output
 * helpers (csrc/kernels/context.c): registration checks, constraint
 * matching, priorities, labels, duplicates, TF's NOT_FOUND listing,
 * listing by index, thread safety, and the built-in registrations. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "core/tensor_internal.h"
#include "kernels/kernel.h"
#include "ops/attr_value.h"
#include "ops/op_registry.h"
#include "tensorflow/c/tf_tstring.h"
#include "tfe/tfe.h"
#include "tfe_test.h"

static int g_calls_a, g_calls_b;
static void compute_a(tfe_kernel_context* k) { (void)k; g_calls_a++; }
static void compute_b(tfe_kernel_context* k) { (void)k; g_calls_b++; }

/* A definition that only carries a name (the registry needs no more). */
static tfe_op_def fake_def(const char* name) {
  tfe_op_def d;
  memset(&d, 0, sizeof d);
  d.name = (char*)name;
  return d;
}

static tfe_kernel_reg make_reg(const char* op, const char* dev,
                               void (*fn)(tfe_kernel_context*)) {
  tfe_kernel_reg r;
  memset(&r, 0, sizeof r);
  r.op_name = op;
  r.device_type = dev;
  r.compute = fn;
  return r;
}

static void add_constraint(tfe_kernel_reg* r, const char* attr,
                           const TF_DataType* types, int n) {
  r->constraints[r->num_constraints].attr = attr;
  r->constraints[r->num_constraints].types = types;
  r->constraints[r->num_constraints].num_types = n;
  r->num_constraints++;
}

static void put_type(tfe_attrs* a, const char* name, TF_DataType t) {
  tfe_attr_value v;
  tfe_attr_value_set_type(&v, t);
  CHECK(tfe_attrs_put(a, name, &v));
}

static void put_string(tfe_attrs* a, const char* name, const char* s) {
  tfe_attr_value v;
  CHECK(tfe_attr_value_set_string(&v, s, strlen(s)));
  CHECK(tfe_attrs_put(a, name, &v));
}

static const TF_DataType kFloatDouble[] = {TF_FLOAT, TF_DOUBLE};
static const TF_DataType kInt32[] = {TF_INT32};

/* ------------------------------------------------------------ register */

TEST(register_rejects_incomplete_registrations) {
  TF_Status* s = TF_NewStatus();
  tfe_kernel_reg r = make_reg("RegTestIncomplete", "CPU", compute_a);
  int before = tfe_kernel_count();
  CHECK_EQ_INT(tfe_kernel_register(NULL, s), 0);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  r.op_name = NULL;
  CHECK_EQ_INT(tfe_kernel_register(&r, s), 0);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  r.op_name = "";
  CHECK_EQ_INT(tfe_kernel_register(&r, s), 0);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  r = make_reg("RegTestIncomplete", NULL, compute_a);
  CHECK_EQ_INT(tfe_kernel_register(&r, s), 0);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "RegTestIncomplete");
  r = make_reg("RegTestIncomplete", "CPU", NULL);
  CHECK_EQ_INT(tfe_kernel_register(&r, s), 0);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "compute");
  r = make_reg("RegTestIncomplete", "CPU", compute_a);
  r.num_constraints = TFE_KERNEL_MAX_CONSTRAINTS + 1;
  CHECK_EQ_INT(tfe_kernel_register(&r, s), 0);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  r = make_reg("RegTestIncomplete", "CPU", compute_a);
  add_constraint(&r, NULL, kInt32, 1);
  CHECK_EQ_INT(tfe_kernel_register(&r, s), 0);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  r = make_reg("RegTestIncomplete", "CPU", compute_a);
  add_constraint(&r, "T", NULL, 2);
  CHECK_EQ_INT(tfe_kernel_register(&r, s), 0);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  r = make_reg("RegTestIncomplete", "CPU", compute_a);
  add_constraint(&r, "T", kInt32, 1);
  add_constraint(&r, "T", kFloatDouble, 2);
  CHECK_EQ_INT(tfe_kernel_register(&r, s), 0);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "twice");
  r = make_reg("RegTestIncomplete", "CPU", compute_a);
  r.num_host_memory_args = 1;
  CHECK_EQ_INT(tfe_kernel_register(&r, s), 0);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(tfe_kernel_count(), before);
  TF_DeleteStatus(s);
}

TEST(register_copies_everything) {
  TF_Status* s = TF_NewStatus();
  char op[32], dev[8], attr[4], label[8], hm[8];
  TF_DataType types[2] = {TF_FLOAT, TF_INT64};
  const char* hms[1];
  tfe_kernel_reg r;
  const tfe_kernel_reg* found;
  tfe_op_def def = fake_def("RegTestCopies");
  tfe_attrs a;
  int x = 7;
  strcpy(op, "RegTestCopies");
  strcpy(dev, "CPU");
  strcpy(attr, "T");
  strcpy(label, "lbl");
  strcpy(hm, "shape");
  hms[0] = hm;
  r = make_reg(op, dev, compute_a);
  add_constraint(&r, attr, types, 2);
  r.label = label;
  r.host_memory_args = hms;
  r.num_host_memory_args = 1;
  r.priority = 3;
  r.user_data = &x;
  CHECK(tfe_kernel_register(&r, s));
  CHECK_CODE(s, TF_OK);
  /* Scribble over everything the caller passed. */
  memset(op, 'x', sizeof op - 1);
  memset(dev, 'x', sizeof dev - 1);
  memset(attr, 'x', sizeof attr - 1);
  memset(label, 'x', sizeof label - 1);
  memset(hm, 'x', sizeof hm - 1);
  types[0] = TF_STRING;
  types[1] = TF_STRING;
  tfe_attrs_init(&a);
  put_type(&a, "T", TF_INT64);
  put_string(&a, "_kernel", "lbl");
  found = tfe_kernel_find(&def, "CPU", &a, s);
  CHECK_CODE(s, TF_OK);
  CHECK(found != NULL);
  CHECK_STR_EQ(found->op_name, "RegTestCopies");
  CHECK_STR_EQ(found->device_type, "CPU");
  CHECK_STR_EQ(found->label, "lbl");
  CHECK_STR_EQ(found->constraints[0].attr, "T");
  CHECK_EQ_INT(found->constraints[0].num_types, 2);
  CHECK_EQ_INT(found->constraints[0].types[1], TF_INT64);
  CHECK_EQ_INT(found->num_host_memory_args, 1);
  CHECK_STR_EQ(found->host_memory_args[0], "shape");
  CHECK_EQ_INT(found->priority, 3);
  CHECK(found->user_data == &x);
  CHECK(found->compute == compute_a);
  tfe_attrs_destroy(&a);
  TF_DeleteStatus(s);
}

/* ------------------------------------------------------------ lookup */

TEST(find_matches_type_constraints) {
  TF_Status* s = TF_NewStatus();
  tfe_kernel_reg r = make_reg("RegTestMatch", "CPU", compute_a);
  tfe_op_def def = fake_def("RegTestMatch");
  tfe_attrs a;
  const tfe_kernel_reg* k;
  add_constraint(&r, "T", kFloatDouble, 2);
  CHECK(tfe_kernel_register(&r, s));
  tfe_attrs_init(&a);
  put_type(&a, "T", TF_DOUBLE);
  k = tfe_kernel_find(&def, "CPU", &a, s);
  CHECK_CODE(s, TF_OK);
  CHECK(k != NULL && k->compute == compute_a);
  /* Missing attr: no match. */
  tfe_attrs_clear(&a);
  k = tfe_kernel_find(&def, "CPU", &a, s);
  CHECK(k == NULL);
  CHECK_CODE(s, TF_NOT_FOUND);
  /* Wrong device type: no match. */
  put_type(&a, "T", TF_FLOAT);
  k = tfe_kernel_find(&def, "GPU", &a, s);
  CHECK(k == NULL);
  CHECK_CODE(s, TF_NOT_FOUND);
  /* A type attr holding a non-type value does not match. */
  {
    tfe_attr_value v;
    tfe_attr_value_set_int(&v, 1);
    CHECK(tfe_attrs_put(&a, "T", &v));
  }
  CHECK(tfe_kernel_find(&def, "CPU", &a, s) == NULL);
  CHECK_CODE(s, TF_NOT_FOUND);
  tfe_attrs_destroy(&a);
  TF_DeleteStatus(s);
}

TEST(find_checks_every_element_of_type_lists) {
  TF_Status* s = TF_NewStatus();
  tfe_kernel_reg r = make_reg("RegTestList", "CPU", compute_a);
  tfe_op_def def = fake_def("RegTestList");
  tfe_attrs a;
  tfe_attr_value v;
  const TF_DataType ok[2] = {TF_FLOAT, TF_DOUBLE};
  const TF_DataType bad[2] = {TF_FLOAT, TF_INT32};
  add_constraint(&r, "Tlist", kFloatDouble, 2);
  CHECK(tfe_kernel_register(&r, s));
  tfe_attrs_init(&a);
  CHECK(tfe_attr_value_set_type_list(&v, ok, 2));
  CHECK(tfe_attrs_put(&a, "Tlist", &v));
  CHECK(tfe_kernel_find(&def, "CPU", &a, s) != NULL);
  CHECK(tfe_attr_value_set_type_list(&v, bad, 2));
  CHECK(tfe_attrs_put(&a, "Tlist", &v));
  CHECK(tfe_kernel_find(&def, "CPU", &a, s) == NULL);
  CHECK_CODE(s, TF_NOT_FOUND);
  tfe_attrs_destroy(&a);
  TF_DeleteStatus(s);
}

TEST(find_prefers_higher_priority_and_rejects_ties) {
  TF_Status* s = TF_NewStatus();
  tfe_kernel_reg lo = make_reg("RegTestPrio", "CPU", compute_a);
  tfe_kernel_reg hi = make_reg("RegTestPrio", "CPU", compute_b);
  tfe_kernel_reg tie = make_reg("RegTestPrio", "CPU", compute_a);
  tfe_op_def def = fake_def("RegTestPrio");
  tfe_attrs a;
  const tfe_kernel_reg* k;
  const TF_DataType f[1] = {TF_FLOAT};
  const TF_DataType fd[2] = {TF_FLOAT, TF_DOUBLE};
  const TF_DataType d[1] = {TF_DOUBLE};
  add_constraint(&lo, "T", fd, 2);
  add_constraint(&hi, "T", f, 1);
  hi.priority = 5;
  CHECK(tfe_kernel_register(&lo, s));
  CHECK(tfe_kernel_register(&hi, s));
  tfe_attrs_init(&a);
  put_type(&a, "T", TF_FLOAT);
  k = tfe_kernel_find(&def, "CPU", &a, s);
  CHECK(k != NULL && k->compute == compute_b);
  put_type(&a, "T", TF_DOUBLE);
  k = tfe_kernel_find(&def, "CPU", &a, s);
  CHECK(k != NULL && k->compute == compute_a);
  /* A second priority-0 kernel for double: two equal candidates. */
  add_constraint(&tie, "T", d, 1);
  CHECK(tfe_kernel_register(&tie, s));
  k = tfe_kernel_find(&def, "CPU", &a, s);
  CHECK(k == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "Multiple OpKernel registrations");
  /* float still resolves to the unique highest priority. */
  put_type(&a, "T", TF_FLOAT);
  k = tfe_kernel_find(&def, "CPU", &a, s);
  CHECK(k != NULL && k->compute == compute_b);
  tfe_attrs_destroy(&a);
  TF_DeleteStatus(s);
}

TEST(duplicates_are_rejected_but_labels_and_devices_differ) {
  TF_Status* s = TF_NewStatus();
  tfe_kernel_reg r = make_reg("RegTestDup", "CPU", compute_a);
  const TF_DataType fd[2] = {TF_FLOAT, TF_DOUBLE};
  const TF_DataType df[2] = {TF_DOUBLE, TF_FLOAT};
  int before;
  add_constraint(&r, "T", fd, 2);
  CHECK(tfe_kernel_register(&r, s));
  before = tfe_kernel_count();
  /* Same types in another order: still the same registration. */
  r.constraints[0].types = df;
  r.compute = compute_b;
  CHECK_EQ_INT(tfe_kernel_register(&r, s), 0);
  CHECK_CODE(s, TF_ALREADY_EXISTS);
  CHECK_STR_CONTAINS(TF_Message(s), "RegTestDup");
  CHECK_EQ_INT(tfe_kernel_count(), before);
  /* Another priority makes it distinct too (lookup picks the higher). */
  r.priority = 1;
  CHECK(tfe_kernel_register(&r, s));
  CHECK_CODE(s, TF_OK);
  r.priority = 0;
  before++;
  /* A label or another device makes it distinct. */
  r.label = "special";
  CHECK(tfe_kernel_register(&r, s));
  CHECK_CODE(s, TF_OK);
  r.label = NULL;
  r.device_type = "GPU";
  CHECK(tfe_kernel_register(&r, s));
  CHECK_EQ_INT(tfe_kernel_count(), before + 2);
  TF_DeleteStatus(s);
}

TEST(labels_are_selected_by_the_kernel_attr) {
  TF_Status* s = TF_NewStatus();
  tfe_kernel_reg plain = make_reg("RegTestLabel", "CPU", compute_a);
  tfe_kernel_reg lab = make_reg("RegTestLabel", "CPU", compute_b);
  tfe_op_def def = fake_def("RegTestLabel");
  tfe_attrs a;
  const tfe_kernel_reg* k;
  lab.label = "fast";
  CHECK(tfe_kernel_register(&plain, s));
  CHECK(tfe_kernel_register(&lab, s));
  tfe_attrs_init(&a);
  k = tfe_kernel_find(&def, "CPU", &a, s);
  CHECK(k != NULL && k->compute == compute_a);
  put_string(&a, "_kernel", "fast");
  k = tfe_kernel_find(&def, "CPU", &a, s);
  CHECK(k != NULL && k->compute == compute_b);
  put_string(&a, "_kernel", "other");
  k = tfe_kernel_find(&def, "CPU", &a, s);
  CHECK(k == NULL);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_STR_CONTAINS(TF_Message(s), "label='fast'");
  tfe_attrs_destroy(&a);
  TF_DeleteStatus(s);
}

TEST(not_found_message_lists_registered_kernels_like_tf) {
  TF_Status* s = TF_NewStatus();
  tfe_kernel_reg r1 = make_reg("RegTestMsg", "CPU", compute_a);
  tfe_kernel_reg r2 = make_reg("RegTestMsg", "GPU", compute_a);
  tfe_op_def def = fake_def("RegTestMsg");
  tfe_attrs a;
  const TF_DataType i32[1] = {TF_INT32};
  add_constraint(&r1, "T", kFloatDouble, 2);
  add_constraint(&r2, "T", i32, 1);
  add_constraint(&r2, "Tidx", i32, 1);
  CHECK(tfe_kernel_register(&r1, s));
  CHECK(tfe_kernel_register(&r2, s));
  tfe_attrs_init(&a);
  put_type(&a, "T", TF_STRING);
  put_type(&a, "Tidx", TF_INT64);
  put_string(&a, "_hidden", "x");
  CHECK(tfe_kernel_find(&def, "CPU", &a, s) == NULL);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_STR_EQ(TF_Message(s),
               "Could not find device for node: {{node RegTestMsg}} = "
               "RegTestMsg[T=DT_STRING, Tidx=DT_INT64]\n"
               "All kernels registered for op RegTestMsg:\n"
               "  device='CPU'; T in [DT_FLOAT, DT_DOUBLE]\n"
               "  device='GPU'; T in [DT_INT32]; Tidx in [DT_INT32]\n");
  tfe_attrs_destroy(&a);
  TF_DeleteStatus(s);
}

TEST(not_found_for_an_op_without_kernels) {
  TF_Status* s = TF_NewStatus();
  tfe_op_def def = fake_def("RegTestNoKernels");
  tfe_attrs a;
  tfe_attrs_init(&a);
  CHECK(tfe_kernel_find(&def, "CPU", &a, s) == NULL);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_STR_EQ(TF_Message(s),
               "Could not find device for node: {{node RegTestNoKernels}} = "
               "RegTestNoKernels[]\nAll kernels registered for op "
               "RegTestNoKernels:\n  <no registered kernels>\n");
  /* NULL attrs is the same as empty attrs. */
  CHECK(tfe_kernel_find(&def, "CPU", NULL, s) == NULL);
  CHECK_CODE(s, TF_NOT_FOUND);
  tfe_attrs_destroy(&a);
  TF_DeleteStatus(s);
}

TEST(find_rejects_bad_arguments) {
  TF_Status* s = TF_NewStatus();
  tfe_op_def def = fake_def("AddV2");
  tfe_op_def unnamed = fake_def(NULL);
  CHECK(tfe_kernel_find(NULL, "CPU", NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(tfe_kernel_find(&unnamed, "CPU", NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(tfe_kernel_find(&def, NULL, NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(tfe_kernel_find(&def, "", NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  /* A NULL status is tolerated. */
  CHECK(tfe_kernel_find(&def, "CPU", NULL, NULL) == NULL);
  TF_DeleteStatus(s);
}

TEST(count_and_at_list_registrations_in_order) {
  TF_Status* s = TF_NewStatus();
  tfe_kernel_reg r = make_reg("RegTestListing", "CPU", compute_a);
  int n0 = tfe_kernel_count(), i;
  CHECK(tfe_kernel_register(&r, s));
  r.device_type = "GPU";
  CHECK(tfe_kernel_register(&r, s));
  CHECK_EQ_INT(tfe_kernel_count(), n0 + 2);
  CHECK_STR_EQ(tfe_kernel_at(n0)->device_type, "CPU");
  CHECK_STR_EQ(tfe_kernel_at(n0 + 1)->device_type, "GPU");
  CHECK(tfe_kernel_at(-1) == NULL);
  CHECK(tfe_kernel_at(n0 + 2) == NULL);
  for (i = 0; i < tfe_kernel_count(); i++) CHECK(tfe_kernel_at(i) != NULL);
  TF_DeleteStatus(s);
}

/* Many threads register distinct ops while others look them up. */
#define REG_THREADS 4
#define REG_PER_THREAD 200

static void* register_many(void* arg) {
  int t = (int)(intptr_t)arg, i;
  TF_Status* s = TF_NewStatus();
  char name[64];
  for (i = 0; i < REG_PER_THREAD; i++) {
    tfe_kernel_reg r = make_reg(name, "CPU", compute_a);
    snprintf(name, sizeof name, "RegThread_%d_%d", t, i);
    if (!tfe_kernel_register(&r, s)) {
      TF_DeleteStatus(s);
      return (void*)1;
    }
  }
  TF_DeleteStatus(s);
  return NULL;
}

static void* find_many(void* arg) {
  int i, misses = 0;
  TF_Status* s = TF_NewStatus();
  (void)arg;
  for (i = 0; i < 2000; i++) {
    tfe_op_def def = fake_def("RegThreadStable");
    if (tfe_kernel_find(&def, "CPU", NULL, s) == NULL) misses++;
    (void)tfe_kernel_at(i % (tfe_kernel_count() + 1));
  }
  TF_DeleteStatus(s);
  return misses ? (void*)1 : NULL;
}

TEST(registry_is_thread_safe) {
  TF_Status* s = TF_NewStatus();
  pthread_t th[REG_THREADS * 2];
  tfe_kernel_reg stable = make_reg("RegThreadStable", "CPU", compute_a);
  int n0, i, t;
  CHECK(tfe_kernel_register(&stable, s));
  n0 = tfe_kernel_count();
  for (t = 0; t < REG_THREADS; t++) {
    CHECK(pthread_create(&th[t], NULL, register_many, (void*)(intptr_t)t) ==
          0);
    CHECK(pthread_create(&th[REG_THREADS + t], NULL, find_many, NULL) == 0);
  }
  for (t = 0; t < REG_THREADS * 2; t++) {
    void* rc;
    CHECK(pthread_join(th[t], &rc) == 0);
    CHECK(rc == NULL);
  }
  CHECK_EQ_INT(tfe_kernel_count(), n0 + REG_THREADS * REG_PER_THREAD);
  for (t = 0; t < REG_THREADS; t++) {
    for (i = 0; i < REG_PER_THREAD; i += 37) {
      char name[64];
      tfe_op_def def;
      snprintf(name, sizeof name, "RegThread_%d_%d", t, i);
      def = fake_def(name);
      CHECK(tfe_kernel_find(&def, "CPU", NULL, s) != NULL);
    }
  }
  TF_DeleteStatus(s);
}

/* ------------------------------------------------------------ builtins */

TEST(builtins_register_once_and_resolve) {
  TF_Status* s = TF_NewStatus();
  const tfe_op_def* add;
  const tfe_op_def* cast;
  tfe_attrs a;
  int n;
  tfe_ops_ensure_builtins();
  tfe_kernels_ensure_builtins();
  n = tfe_kernel_count();
  CHECK(n > 50);
  tfe_kernels_ensure_builtins();
  CHECK_EQ_INT(tfe_kernel_count(), n);
  add = tfe_op_lookup("AddV2");
  cast = tfe_op_lookup("Cast");
  CHECK(add != NULL && cast != NULL);
  tfe_attrs_init(&a);
  put_type(&a, "T", TF_FLOAT);
  CHECK(tfe_kernel_find(add, "CPU", &a, s) != NULL);
  put_type(&a, "T", TF_UINT64);
  CHECK(tfe_kernel_find(add, "CPU", &a, s) != NULL);
  put_type(&a, "T", TF_STRING);
  CHECK(tfe_kernel_find(add, "CPU", &a, s) == NULL);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_STR_CONTAINS(TF_Message(s), "{{node AddV2}} = AddV2[T=DT_STRING]");
  CHECK_STR_CONTAINS(TF_Message(s), "device='CPU'; T in [DT_FLOAT, DT_DOUBLE");
  /* Cast has one kernel without constraints. */
  tfe_attrs_clear(&a);
  put_type(&a, "SrcT", TF_STRING);
  put_type(&a, "DstT", TF_COMPLEX128);
  CHECK(tfe_kernel_find(cast, "CPU", &a, s) != NULL);
  CHECK(tfe_kernel_find(cast, "GPU", &a, s) == NULL);
  CHECK_CODE(s, TF_NOT_FOUND);
  tfe_attrs_destroy(&a);
  TF_DeleteStatus(s);
}

/* The elementwise kernels (csrc/kernels/cpu/elementwise_*.c). */
static const char* const kElementwiseOps[] = {
    "AddV2", "Add", "Sub", "Mul", "MulNoNan", "Maximum", "Minimum",
    "SquaredDifference", "Pow", "Atan2", "RealDiv", "Div", "DivNoNan",
    "FloorDiv", "FloorMod", "TruncateDiv", "TruncateMod", "Mod",
    "BitwiseAnd", "BitwiseOr", "BitwiseXor", "Invert", "LeftShift",
    "RightShift", "Equal", "NotEqual", "Less", "LessEqual", "Greater",
    "GreaterEqual", "LogicalAnd", "LogicalOr", "LogicalNot", "Neg", "Abs",
    "Square", "Reciprocal", "Sqrt", "Rsqrt", "Exp", "Expm1", "Log", "Log1p",
    "Sigmoid", "Tanh", "Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh",
    "Cosh", "Asinh", "Acosh", "Atanh", "Floor", "Ceil", "Round", "Rint",
    "Sign", "Erf", "Erfc", "Lgamma", "Digamma", "IsNan", "IsInf", "IsFinite",
    "Relu", "Relu6", "Elu", "Selu", "Softplus", "Softsign", "LeakyRelu",
    "Select", "SelectV2", "Cast", "ClipByValue", "AddN", "BiasAdd",
    "Bucketize"};

static int is_elementwise_op(const char* name) {
  size_t i;
  for (i = 0; i < sizeof kElementwiseOps / sizeof kElementwiseOps[0]; i++) {
    if (strcmp(kElementwiseOps[i], name) == 0) return 1;
  }
  return 0;
}

/* Every elementwise op has a CPU kernel whose type constraints name only
 * dtypes the op definition allows (a kernel the op could never reach is a
 * registration mistake). */
TEST(elementwise_kernels_agree_with_op_definitions) {
  int i, j, t, bad = 0;
  size_t e;
  tfe_ops_ensure_builtins();
  tfe_kernels_ensure_builtins();
  for (e = 0; e < sizeof kElementwiseOps / sizeof kElementwiseOps[0]; e++) {
    int found = 0;
    for (i = 0; i < tfe_kernel_count(); i++) {
      if (strcmp(tfe_kernel_at(i)->op_name, kElementwiseOps[e]) == 0) found = 1;
    }
    if (!found) TFE_FAIL("no kernel for %s", kElementwiseOps[e]);
  }
  for (i = 0; i < tfe_kernel_count(); i++) {
    const tfe_kernel_reg* r = tfe_kernel_at(i);
    const tfe_op_def* def;
    if (!is_elementwise_op(r->op_name)) continue;
    def = tfe_op_lookup(r->op_name);
    if (def == NULL) TFE_FAIL("kernel for undefined op %s", r->op_name);
    for (j = 0; j < r->num_constraints; j++) {
      const tfe_attr_def* ad = tfe_op_def_find_attr(def, r->constraints[j].attr);
      if (ad == NULL) {
        TFE_FAIL("%s: constraint on unknown attr %s", r->op_name,
                 r->constraints[j].attr);
      }
      if (!ad->has_allowed) continue;
      for (t = 0; t < r->constraints[j].num_types; t++) {
        int k, ok = 0;
        for (k = 0; k < ad->allowed.list_size; k++) {
          if (ad->allowed.list.type[k] == r->constraints[j].types[t]) ok = 1;
        }
        if (!ok) {
          fprintf(stderr, "%s: kernel type %s not allowed by the op "
                  "definition\n", r->op_name,
                  tfe_dtype_enum_name(r->constraints[j].types[t]));
          bad++;
        }
      }
    }
  }
  CHECK_EQ_INT(bad, 0);
}

/* ------------------------------------------------------------ context */

static tfe_kernel_context make_ctx(TF_Tensor** ins, int nin, TF_Tensor** outs,
                                   int nout, const TF_DataType* otypes,
                                   TF_Status* s) {
  tfe_kernel_context k;
  memset(&k, 0, sizeof k);
  k.inputs = ins;
  k.num_inputs = nin;
  k.outputs = outs;
  k.num_outputs = nout;
  k.output_types = otypes;
  k.status = s;
  return k;
}

TEST(alloc_output_allocates_and_validates) {
  TF_Status* s = TF_NewStatus();
  TF_Tensor* outs[2] = {NULL, NULL};
  tfe_kernel_context k = make_ctx(NULL, 0, outs, 2, NULL, s);
  const int64_t dims[2] = {2, 3};
  const int64_t bad[2] = {2, -1};
  int64_t live = TFE_LiveObjectCount(TFE_OBJ_TENSOR);
  TF_Tensor* t = tfe_kernel_alloc_output(&k, 0, TF_FLOAT, dims, 2);
  CHECK(t != NULL && outs[0] == t);
  CHECK_EQ_INT(TF_NumDims(t), 2);
  CHECK_EQ_INT(TF_Dim(t, 1), 3);
  CHECK_EQ_SIZE(TF_TensorByteSize(t), 24);
  CHECK(((uintptr_t)TF_TensorData(t) % 64) == 0);
  /* Allocating the same slot again replaces (and frees) the old one. */
  t = tfe_kernel_alloc_output(&k, 0, TF_INT64, NULL, 0);
  CHECK(t != NULL && outs[0] == t);
  CHECK_EQ_INT(TFE_LiveObjectCount(TFE_OBJ_TENSOR), live + 1);
  /* Strings start out empty. */
  t = tfe_kernel_alloc_output(&k, 1, TF_STRING, dims, 2);
  CHECK(t != NULL);
  CHECK_EQ_SIZE(TF_StringGetSize(&((TF_TString*)TF_TensorData(t))[5]), 0);
  CHECK(tfe_kernel_alloc_output(&k, 2, TF_FLOAT, dims, 2) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(tfe_kernel_alloc_output(&k, -1, TF_FLOAT, dims, 2) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(tfe_kernel_alloc_output(&k, 0, TF_FLOAT, bad, 2) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(tfe_kernel_alloc_output(&k, 0, TF_FLOAT, NULL, 1) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(tfe_kernel_alloc_output(&k, 0, TF_RESOURCE, dims, 2) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  /* Zero-sized outputs are fine. */
  {
    const int64_t zero[2] = {0, 5};
    CHECK(tfe_kernel_alloc_output(&k, 0, TF_DOUBLE, zero, 2) != NULL);
    CHECK_EQ_SIZE(TF_TensorByteSize(outs[0]), 0);
  }
  /* Out of memory surfaces as RESOURCE_EXHAUSTED. */
  TF_SetStatus(s, TF_OK, "");
  TFE_TestFailAllocationsAfter(0);
  t = tfe_kernel_alloc_output(&k, 0, TF_FLOAT, dims, 2);
  TFE_TestFailAllocationsAfter(-1);
  CHECK(t == NULL);
  CHECK_CODE(s, TF_RESOURCE_EXHAUSTED);
  TF_DeleteTensor(outs[0]);
  TF_DeleteTensor(outs[1]);
  CHECK_EQ_INT(TFE_LiveObjectCount(TFE_OBJ_TENSOR), live);
  TF_DeleteStatus(s);
}

TEST(alias_input_shares_the_buffer) {
  TF_Status* s = TF_NewStatus();
  const int64_t dims[2] = {2, 3};
  const int64_t flat[1] = {6};
  const int64_t wrong[1] = {5};
  TF_Tensor* in = TF_AllocateTensor(TF_FLOAT, dims, 2, 24);
  TF_Tensor* outs[1] = {NULL};
  TF_DataType otypes[1] = {TF_INT32};
  tfe_kernel_context k = make_ctx(&in, 1, outs, 1, otypes, s);
  TF_Tensor* t;
  ((float*)TF_TensorData(in))[4] = 1.0f;
  t = tfe_kernel_alias_input(&k, 0, 0, flat, 1);
  CHECK(t != NULL && outs[0] == t);
  CHECK(TF_TensorData(t) == TF_TensorData(in));
  CHECK_EQ_INT(TF_TensorType(t), TF_INT32); /* the output's declared type */
  CHECK_EQ_INT(((int32_t*)TF_TensorData(t))[4], 0x3f800000);
  CHECK(tfe_kernel_alias_input(&k, 0, 0, wrong, 1) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(tfe_kernel_alias_input(&k, 0, 1, flat, 1) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(tfe_kernel_alias_input(&k, 1, 0, flat, 1) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  /* The alias keeps the data alive after the input goes. */
  TF_DeleteTensor(in);
  CHECK_EQ_INT(((int32_t*)TF_TensorData(outs[0]))[4], 0x3f800000);
  TF_DeleteTensor(outs[0]);
  TF_DeleteStatus(s);
}

TEST(set_output_takes_ownership) {
  TF_Status* s = TF_NewStatus();
  TF_Tensor* outs[1] = {NULL};
  tfe_kernel_context k = make_ctx(NULL, 0, outs, 1, NULL, s);
  int64_t live = TFE_LiveObjectCount(TFE_OBJ_TENSOR);
  TF_Tensor* a = TF_AllocateTensor(TF_FLOAT, NULL, 0, 4);
  TF_Tensor* b = TF_AllocateTensor(TF_FLOAT, NULL, 0, 4);
  tfe_kernel_set_output(&k, 0, a);
  CHECK(outs[0] == a);
  tfe_kernel_set_output(&k, 0, b); /* frees a */
  CHECK(outs[0] == b);
  CHECK_EQ_INT(TFE_LiveObjectCount(TFE_OBJ_TENSOR), live + 1);
  /* A bad index still consumes the tensor. */
  tfe_kernel_set_output(&k, 3, TF_AllocateTensor(TF_FLOAT, NULL, 0, 4));
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(TFE_LiveObjectCount(TFE_OBJ_TENSOR), live + 1);
  tfe_kernel_set_output(NULL, 0, TF_AllocateTensor(TF_FLOAT, NULL, 0, 4));
  CHECK_EQ_INT(TFE_LiveObjectCount(TFE_OBJ_TENSOR), live + 1);
  TF_DeleteTensor(outs[0]);
  CHECK_EQ_INT(TFE_LiveObjectCount(TFE_OBJ_TENSOR), live);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
