#define _GNU_SOURCE
/* Ops tfe defines only from TF 2.21's generated table (issue 18), through the
 * public API: running one without a kernel is NOT_FOUND with TF 2.21's
 * eager message, a plugin can register a kernel for one and run it, graphs
 * containing them build, serialize and import, and listings include them. */
#include <dlfcn.h>
#include <stdint.h>
#include <string.h>

#include "eager_test_util.h"
#include "tensorflow/c/c_api.h"
#include "tensorflow/c/eager/c_api.h"
#include "tfe_test.h"

#define GEN_OP_PLUGIN TFE_TEST_PLUGIN_DIR "/gen_op_kernel.so"

/* TF 2.21 eager, tf.raw_ops.TPUReplicateMetadata(num_replicas=1) on a CPU
 * host (the Python layer appends " [Op:TPUReplicateMetadata]"). */
static const char kTfTpuMessage[] =
    "Could not find device for node: {{node TPUReplicateMetadata}} = "
    "TPUReplicateMetadata[allow_soft_placement=false, computation_shape=[], "
    "device_assignment=[], host_compute_core=[], num_cores_per_replica=1, "
    "num_replicas=1, padding_map=[], step_marker_location=\"STEP_MARK_AT_"
    "ENTRY\", topology=\"\", tpu_compile_options_proto=\"\", "
    "use_shardy_partitioner=false, use_spmd_for_xla_partitioning=false, "
    "use_tpu=true]\nAll kernels registered for op TPUReplicateMetadata:\n"
    "  <no registered kernels>\n";

TEST(kernel_less_op_is_not_found_as_tf) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  live_counts before = live_now();
  TFE_Op* op = TFE_NewOp(ctx, "TPUReplicateMetadata", s);
  TFE_TensorHandle* out[1] = {NULL};
  int n = 1;
  CHECK_CODE(s, TF_OK);
  TFE_OpSetAttrInt(op, "num_replicas", 1);
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_STR_EQ(TF_Message(s), kTfTpuMessage);
  TFE_DeleteOp(op);
  CHECK_LIVE_EQ(live_now(), before);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(kernel_less_op_with_inputs_is_not_found) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle* x = scalar_f32(1.5f, s);
  TFE_Op* op = TFE_NewOp(ctx, "TPUReplicatedInput", s);
  TFE_TensorHandle* out[1] = {NULL};
  int n = 1;
  CHECK_CODE(s, TF_OK);
  TFE_OpAddInputList(op, &x, 1, s);
  CHECK_CODE(s, TF_OK);
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_STR_EQ(TF_Message(s),
               "Could not find device for node: {{node TPUReplicatedInput}} = "
               "TPUReplicatedInput[N=1, T=DT_FLOAT, index=-1, "
               "is_mirrored_variable=false, is_packed=false]\nAll kernels "
               "registered for op TPUReplicatedInput:\n  <no registered "
               "kernels>\n");
  TFE_DeleteOp(op);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(plugin_kernel_for_a_generated_op_runs) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx;
  TF_Library* lib;
  void* h;
  int *registered, *runs;
  TFE_TensorHandle* x;
  TFE_TensorHandle* out[1] = {NULL};
  TFE_Op* op;
  int n = 1;
  lib = TF_LoadLibrary(GEN_OP_PLUGIN, s);
  CHECK_CODE(s, TF_OK);
  h = dlopen(GEN_OP_PLUGIN, RTLD_NOW | RTLD_NOLOAD);
  CHECK(h != NULL);
  registered = (int*)dlsym(h, "gen_op_kernel_registered");
  runs = (int*)dlsym(h, "gen_op_kernel_runs");
  CHECK(registered != NULL && runs != NULL);
  CHECK_EQ_INT(*registered, 1);
  ctx = new_ctx(s);
  x = scalar_f32(2.25f, s);
  op = TFE_NewOp(ctx, "XlaSharding", s);
  CHECK_CODE(s, TF_OK);
  TFE_OpAddInput(op, x, s);
  CHECK_CODE(s, TF_OK);
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(n, 1);
  CHECK(read_f32(out[0], s) == 2.25f);
  CHECK_EQ_INT(*runs, 1);
  TFE_DeleteTensorHandle(out[0]);
  TFE_DeleteOp(op);
  /* The kernel is for float only: int32 has none, TF's message lists it. */
  TFE_DeleteTensorHandle(x);
  x = scalar_i32(3, s);
  op = TFE_NewOp(ctx, "XlaSharding", s);
  TFE_OpAddInput(op, x, s);
  n = 1;
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_STR_CONTAINS(TF_Message(s), "All kernels registered for op XlaSharding:");
  CHECK_STR_CONTAINS(TF_Message(s), "device='CPU'; T in [DT_FLOAT]");
  TFE_DeleteOp(op);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(ctx);
  dlclose(h);
  TF_DeleteLibraryHandle(lib);
  TF_DeleteStatus(s);
}

static TF_Operation* placeholder(TF_Graph* g, const char* name,
                                 TF_DataType t, TF_Status* s) {
  TF_OperationDescription* d = TF_NewOperation(g, "Placeholder", name);
  TF_SetAttrType(d, "dtype", t);
  return TF_FinishOperation(d, s);
}

TEST(graphs_with_generated_ops_build_and_import) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Graph* g2 = TF_NewGraph();
  TF_Buffer* gd = TF_NewBuffer();
  TF_ImportGraphDefOptions* opts = TF_NewImportGraphDefOptions();
  TF_Operation *x, *sh, *rep, *imported;
  TF_OperationDescription* d;
  TF_Output in;
  x = placeholder(g, "x", TF_FLOAT, s);
  CHECK_CODE(s, TF_OK);
  d = TF_NewOperation(g, "XlaSharding", "sh");
  in.oper = x;
  in.index = 0;
  TF_AddInput(d, in);
  TF_SetAttrString(d, "sharding", "abc", 3);
  sh = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TF_OperationOpType(sh), "XlaSharding");
  d = TF_NewOperation(g, "TPUReplicatedInput", "rep");
  in.oper = sh;
  TF_AddInputList(d, &in, 1);
  rep = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TF_OperationNumOutputs(rep), 1);
  /* A typo'd generated-looking name is still unknown. */
  d = TF_NewOperation(g, "XlaShardingg", "bad");
  in.oper = x;
  TF_AddInput(d, in);
  CHECK(TF_FinishOperation(d, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "Op type not registered 'XlaShardingg'");
  TF_GraphToGraphDef(g, gd, s);
  CHECK_CODE(s, TF_OK);
  TF_GraphImportGraphDef(g2, gd, opts, s);
  CHECK_CODE(s, TF_OK);
  imported = TF_GraphOperationByName(g2, "rep");
  CHECK(imported != NULL);
  CHECK_STR_EQ(TF_OperationOpType(imported), "TPUReplicatedInput");
  imported = TF_GraphOperationByName(g2, "sh");
  CHECK(imported != NULL);
  in.oper = imported;
  in.index = 0;
  CHECK_EQ_INT(TF_OperationOutputType(in), TF_FLOAT);
  TF_DeleteImportGraphDefOptions(opts);
  TF_DeleteBuffer(gd);
  TF_DeleteGraph(g2);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

TEST(op_list_has_every_tf_op) {
  TF_Buffer* b = TF_GetAllOpList();
  CHECK(b != NULL);
  /* The serialized OpList names generated ops next to hand-written ones. */
  CHECK(memmem(b->data, b->length, "TPUReplicateMetadata", 20) != NULL);
  CHECK(memmem(b->data, b->length, "BoostedTreesBucketize", 21) != NULL);
  CHECK(memmem(b->data, b->length, "MatMul", 6) != NULL);
  TF_DeleteBuffer(b);
}

TFE_TEST_MAIN
