/* Shape rules: random ops, resources and variables, TensorLists and
 * optionals, collectives, v1 control flow, function calls and functional
 * control flow, queues, graph-only ops; and the explicit list of ops whose
 * outputs stay unknown. */
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "graph/function_shapes.h"
#include "ops/shape_infer_internal.h"

/* Ops without outputs: nothing to infer, but the rule is "known". */
static int rule_no_outputs(si_ctx* c) {
  (void)c;
  return 1;
}

/* ---- random ---- */

static int rule_stateless_key_counter(si_ctx* c) {
  /* key [1], counter [2] (and the algorithm as a scalar). */
  if (!si_set_vector(c, 0, 1)) return 0;
  if (!si_set_vector(c, 1, 2)) return 0;
  if (si_num_outputs(c) > 2) return si_set_scalar(c, 2);
  return 1;
}

/* ---- resources and variables ---- */

/* ReadVariableOp(resource): the variable's shape when the graph knows
 * it (handle data), else unknown. */
static int rule_read_variable(si_ctx* c) {
  si_sh h;
  si_in_handle(c, 0, &h);
  return si_set(c, 0, &h);
}

/* ResourceGather(resource, indices) with batch_dims: indices.shape +
 * params.shape[batch_dims + 1:]. */
static int rule_resource_gather(si_ctx* c) {
  si_sh p, idx, rest;
  int64_t bd = si_attr_int(c, "batch_dims", 0);
  si_in_handle(c, 0, &p);
  si_in(c, 1, &idx);
  if (p.rank < 0 || bd < 0 || bd > SI_MAX_RANK) return 1;
  if (!si_with_rank_at_least(c, &p, (int)bd + 1, &p)) return 0;
  if (!si_subshape(c, &p, bd + 1, INT64_MAX, &rest)) return 0;
  si_concat(&idx, &rest);
  return si_set(c, 0, &idx);
}

/* Assign(ref, value) with validate_shape; AssignAdd/AssignSub merge. */
static int rule_assign(si_ctx* c) {
  if (si_attr_bool(c, "validate_shape", 1)) return si_rule_merge_both(c);
  return si_set_input(c, 0, 1);
}

/* ---- TensorLists and optionals ---- */

/* Every variant handle output is a scalar. */
static int rule_variant_scalars(si_ctx* c) { return si_rule_scalar(c); }

/* TensorListPushBackBatch(input_handles, tensor): handles keep their
 * shape (a vector of lists). */
static int rule_push_back_batch(si_ctx* c) {
  si_sh h;
  si_in(c, 0, &h);
  if (!si_with_rank(c, &h, 1, &h)) return 0;
  return si_set(c, 0, &h);
}

/* An element shape input (a shape tensor that may be -1 / a scalar -1
 * for "unknown rank"). */
static int element_shape_input(si_ctx* c, int i, si_sh* out) {
  int64_t v;
  int r = si_in_rank(c, i);
  if (r == 0) {
    /* A scalar -1 means unknown rank. */
    if (si_value_scalar(c, i, &v) && v != -1) {
      return si_err(c, "The only valid scalar shape tensor is the fully "
                       "unknown shape specified as -1.");
    }
    si_unknown(out);
    return 1;
  }
  if (r < 0 && si_value(c, i) == NULL) {
    si_unknown(out);
    return 1;
  }
  return si_shape_from_tensor(c, i, out);
}

/* The element shape of the list at input 0: what the list's handle data
 * says (when the graph knows it), merged with the element_shape input i. */
static int element_shape(si_ctx* c, int i, si_sh* out) {
  si_sh in;
  si_in_handle(c, 0, out);
  if (!element_shape_input(c, i, &in)) return 0;
  return si_merge(c, out, &in);
}

/* TensorListStack(input_handle, element_shape) attr num_elements. */
static int rule_list_stack(si_ctx* c) {
  si_sh el, o;
  int64_t n = si_attr_int(c, "num_elements", -1);
  if (!element_shape(c, 1, &el)) return 0;
  if (el.rank < 0) return 1;
  si_vector(&o, n);
  si_concat(&o, &el);
  return si_set(c, 0, &o);
}

/* TensorListGetItem(input_handle, index, element_shape). */
static int rule_list_get_item(si_ctx* c) {
  si_sh el;
  if (!element_shape(c, 2, &el)) return 0;
  return si_set(c, 0, &el);
}

/* TensorListPopBack(input_handle, element_shape). */
static int rule_list_pop_back(si_ctx* c) {
  si_sh el;
  if (!si_set_scalar(c, 0)) return 0;
  if (!element_shape(c, 1, &el)) return 0;
  return si_set(c, 1, &el);
}

/* TensorListGather(input_handle, indices, element_shape). */
static int rule_list_gather(si_ctx* c) {
  si_sh idx, el;
  si_in(c, 1, &idx);
  if (!si_with_rank(c, &idx, 1, &idx)) return 0;
  if (!element_shape(c, 2, &el)) return 0;
  if (el.rank < 0) return 1;
  si_concat(&idx, &el);
  return si_set(c, 0, &idx);
}

/* TensorListConcat/V2: tensor unknown, lengths a vector. */
static int rule_list_concat(si_ctx* c) { return si_set_vector(c, 1, -1); }

static int rule_list_element_shape(si_ctx* c) {
  return si_set_vector(c, 0, -1);
}

/* OptionalGetValue: the output_shapes attr. */
static int rule_explicit_shapes(si_ctx* c) {
  const tfe_attr_value* v = si_attr(c, "output_shapes");
  int i;
  if (v == NULL || !v->is_list || v->list_size == 0 ||
      v->type != TF_ATTR_SHAPE) {
    return 1;
  }
  if (v->list_size != si_num_outputs(c)) return 1;
  for (i = 0; i < v->list_size; i++) {
    if (!si_set_from_attr_shape(c, i, &v->list.shape[i])) return 0;
  }
  return 1;
}

/* ---- TensorArrays (v3): the handle is a 2-vector, flows are scalars ---- */

static int ta_handle(si_ctx* c) {
  si_sh h;
  si_in(c, 0, &h);
  if (!si_with_rank(c, &h, 1, &h)) return 0;
  return si_with_value(c, h.d[0], 2, NULL);
}

static int ta_scalar_input(si_ctx* c, int i) {
  si_sh s;
  si_in(c, i, &s);
  return si_with_rank(c, &s, 0, &s);
}

/* TensorArrayV3(size): handle [2], flow scalar. */
static int rule_ta_new(si_ctx* c) {
  if (!ta_scalar_input(c, 0)) return 0;
  if (!si_set_vector(c, 0, 2)) return 0;
  return si_set_scalar(c, 1);
}

/* TensorArrayGradV3/GradWithShape(handle, flow_in, ...). */
static int rule_ta_grad(si_ctx* c) {
  if (!ta_handle(c) || !ta_scalar_input(c, 1)) return 0;
  if (!si_set_vector(c, 0, 2)) return 0;
  return si_set_scalar(c, 1);
}

/* Write(handle, index, value, flow), Scatter(handle, indices, value,
 * flow), Split(handle, value, lengths, flow): the new flow. */
static int rule_ta_flow_out(si_ctx* c) {
  if (!ta_handle(c)) return 0;
  if (!ta_scalar_input(c, si_num_inputs(c) - 1)) return 0;
  return si_set_scalar(c, 0);
}

/* Read(handle, index, flow): the element shape from handle data. */
static int rule_ta_read(si_ctx* c) {
  si_sh el;
  if (!ta_handle(c) || !ta_scalar_input(c, 1) || !ta_scalar_input(c, 2)) {
    return 0;
  }
  si_in_handle(c, 0, &el);
  return si_set(c, 0, &el);
}

/* Gather(handle, indices, flow) attr element_shape: [n] + element. */
static int rule_ta_gather(si_ctx* c) {
  si_sh idx, el, attr_el, o;
  const tfe_attr_value* v = si_attr(c, "element_shape");
  if (!ta_handle(c) || !ta_scalar_input(c, 2)) return 0;
  si_in(c, 1, &idx);
  if (!si_with_rank(c, &idx, 1, &idx)) return 0;
  si_in_handle(c, 0, &el);
  if (v != NULL && !v->is_list && v->type == TF_ATTR_SHAPE) {
    si_from_tfe(&attr_el, &v->v.shape);
    if (!si_merge(c, &el, &attr_el)) return 0;
  }
  si_vector(&o, idx.d[0]);
  si_concat(&o, &el);
  return si_set(c, 0, &o);
}

/* Concat(handle, flow): value unknown, lengths a vector. */
static int rule_ta_concat(si_ctx* c) {
  if (!ta_handle(c) || !ta_scalar_input(c, 1)) return 0;
  return si_set_vector(c, 1, -1);
}

static int rule_ta_size(si_ctx* c) {
  if (!ta_handle(c) || !ta_scalar_input(c, 1)) return 0;
  return si_set_scalar(c, 0);
}

static int rule_ta_close(si_ctx* c) { return ta_handle(c); }

/* TF 1 stacks: StackV2's handle is a 2-vector too; a push returns its
 * element; a pop's shape is unknown. */
static int rule_stack_new(si_ctx* c) { return si_set_vector(c, 0, 2); }

static int rule_stack_push(si_ctx* c) {
  si_sh e;
  si_in(c, 1, &e);
  return si_set(c, 0, &e);
}

/* ---- collectives ---- */

static int rule_collective_assign_group(si_ctx* c) {
  if (!si_set_scalar(c, 0)) return 0;
  return si_set_scalar(c, 1);
}

/* CollectiveBcastRecvV2(group_size, group_key, instance_key, shape). */
static int rule_bcast_recv_v2(si_ctx* c) {
  si_sh o;
  if (!si_shape_from_tensor(c, 3, &o)) return 0;
  return si_set(c, 0, &o);
}

/* CollectiveGather v1: the leading dim becomes unknown. */
static int rule_collective_gather(si_ctx* c) {
  si_sh in;
  si_in(c, 0, &in);
  if (!si_with_rank_at_least(c, &in, 1, &in)) return 0;
  if (in.rank < 0) return 1;
  in.d[0] = -1;
  return si_set(c, 0, &in);
}

/* ---- v1 control flow ---- */

/* Enter: a loop variable may change shape from one iteration to the next,
 * so only a loop constant keeps its input's shape (TF's rule). */
static int rule_enter(si_ctx* c) {
  if (si_attr_bool(c, "is_constant", 0)) return si_set_input(c, 0, 0);
  return 1;
}

static int rule_switch(si_ctx* c) {
  si_sh p;
  si_in(c, 1, &p);
  if (!si_with_rank(c, &p, 0, &p)) return 0;
  if (!si_set_input(c, 0, 0)) return 0;
  return si_set_input(c, 1, 0);
}

/* Merge(inputs): the most specific shape every input has (dims that
 * differ become unknown; differing ranks give unknown rank), and the
 * int32 scalar value_index. */
static int rule_merge(si_ctx* c) {
  si_sh out, in;
  int i, n = si_num_inputs(c), k;
  if (!si_set_scalar(c, 1)) return 0;
  if (n == 0) return 1;
  si_in(c, 0, &out);
  for (i = 1; i < n && out.rank >= 0; i++) {
    si_in(c, i, &in);
    if (in.rank != out.rank) {
      out.rank = -1;
      break;
    }
    for (k = 0; k < out.rank; k++) {
      if (out.d[k] != in.d[k]) out.d[k] = -1;
    }
  }
  return si_set(c, 0, &out);
}

static int rule_loop_cond(si_ctx* c) {
  si_sh in;
  si_in(c, 0, &in);
  if (!si_with_rank(c, &in, 0, &in)) return 0;
  return si_set_scalar(c, 0);
}

/* ---- function calls and functional control flow ---- */

/* PartitionedCall / StatefulPartitionedCall: as TF's shape refiner, the
 * shapes of the body's return values when the body of "f" is inferred
 * with the call's input shapes (csrc/graph/function_shapes.c); unknown
 * when the function is not in the graph's library (or recursive). An
 * error of a body node is the call's error, as in TF. */
static int rule_call(si_ctx* c) {
  const tfe_attr_value* f = si_attr(c, "f");
  tfe_shape small[8];
  tfe_shape* out = small;
  int i, ok, n = si_num_outputs(c);
  if (f == NULL || f->is_list || f->type != TF_ATTR_FUNC || n == 0) return 1;
  if (n > 8) {
    out = (tfe_shape*)tfe_calloc((size_t)n, sizeof(tfe_shape));
    if (out == NULL) return 1;
  }
  for (i = 0; i < n; i++) {
    out[i].num_dims = -1;
    out[i].dims = NULL;
  }
  ok = tfe_fn_shapes_call(c->a, f->v.s.data, NULL, NULL, out, c->s);
  for (i = 0; i < n; i++) {
    if (ok && out[i].num_dims >= 0) {
      si_sh sh;
      si_from_tfe(&sh, &out[i]);
      if (!si_set(c, i, &sh)) ok = 0;
    }
    tfe_free(out[i].dims);
  }
  if (out != small) tfe_free(out);
  return ok;
}

/* If/Case: the output_shapes attr when given. TF's refiner does not look
 * into the branches (without output_shapes the outputs stay unknown). */
static int rule_if(si_ctx* c) { return rule_explicit_shapes(c); }

/* While: the output_shapes attr when given, else the loop variables keep
 * their input shapes (TF's rule). */
static int rule_while(si_ctx* c) {
  const tfe_attr_value* v = si_attr(c, "output_shapes");
  if (v != NULL && v->is_list && v->list_size > 0) {
    if (v->list_size != si_num_outputs(c)) {
      return si_err(c,
                    "`output_shapes` must be the same length as num outputs "
                    "(%d vs. %d",
                    v->list_size, si_num_outputs(c));
    }
    return rule_explicit_shapes(c);
  }
  return si_rule_passthrough(c);
}

/* _Arg: a resource argument is a scalar handle; another argument has the
 * shape its "_output_shapes" attr gives (set when a function body is
 * instantiated for known argument shapes), else unknown. */
static int rule_arg(si_ctx* c) {
  const tfe_attr_value* v;
  if (si_attr_type(c, "T") == TF_RESOURCE) return si_set_scalar(c, 0);
  v = si_attr(c, "_output_shapes");
  if (v == NULL || !v->is_list) return 1;
  if (v->list_size == 0 || v->type != TF_ATTR_SHAPE) {
    return si_err(c,
                  "Invalid \"_output_shapes\" attribute value for _Arg "
                  "node");
  }
  return si_set_from_attr_shape(c, 0, &v->list.shape[0]);
}

/* ---- queues ---- */

static int rule_queue_v1_handle(si_ctx* c) { return si_set_vector(c, 0, 2); }

/* QueueSize/QueueIsClosed (v1): the handle is a string vector of 2; the
 * output a scalar. */
static int rule_queue_v1_scalar(si_ctx* c) {
  si_sh h;
  si_in(c, 0, &h);
  if (!si_with_rank(c, &h, 1, &h)) return 0;
  if (!si_with_value(c, h.d[0], 2, NULL)) return 0;
  return si_set_scalar(c, 0);
}

/* QueueDequeueManyV2/UpToV2(handle, n): n is a scalar; the components'
 * shapes live in the queue (TF knows them only from handle data, which a
 * V2 queue does not carry), so they stay unknown. */
static int rule_dequeue_many(si_ctx* c) {
  si_sh n;
  si_in(c, 1, &n);
  return si_with_rank(c, &n, 0, &n);
}

/* TPUReplicatedInput(inputs): every replica has the same shape. */
static int rule_replicated_input(si_ctx* c) {
  si_sh cur, in;
  int i;
  si_in(c, 0, &cur);
  for (i = 1; i < si_num_inputs(c); i++) {
    si_in(c, i, &in);
    if (!si_merge(c, &cur, &in)) return 0;
  }
  return si_set(c, 0, &cur);
}

static int rule_replicated_output(si_ctx* c) {
  int i;
  for (i = 0; i < si_num_outputs(c); i++) {
    if (!si_set_input(c, i, 0)) return 0;
  }
  return 1;
}

const si_rule si_rules_misc[] = {
    /* random */
    {"RandomUniform", si_rule_shape_from_input0},
    {"RandomUniformInt", si_rule_shape_from_input0},
    {"RandomStandardNormal", si_rule_shape_from_input0},
    {"TruncatedNormal", si_rule_shape_from_input0},
    {"StatelessRandomUniformV2", si_rule_shape_from_input0},
    {"StatelessRandomNormalV2", si_rule_shape_from_input0},
    {"StatelessRandomUniform", si_rule_shape_from_input0},
    {"StatelessRandomNormal", si_rule_shape_from_input0},
    {"StatelessRandomGetKeyCounter", rule_stateless_key_counter},
    {"StatelessRandomGetKeyCounterAlg", rule_stateless_key_counter},
    {"StatelessRandomGetAlg", si_rule_scalar},
    /* resources and variables */
    {"VarHandleOp", si_rule_scalar},
    {"ReadVariableOp", rule_read_variable},
    {"AssignVariableOp", rule_no_outputs},
    {"AssignAddVariableOp", rule_no_outputs},
    {"ResourceApplyGradientDescent", rule_no_outputs},
    {"ResourceApplyMomentum", rule_no_outputs},
    {"ResourceApplyKerasMomentum", rule_no_outputs},
    {"ResourceApplyAdam", rule_no_outputs},
    {"AssignSubVariableOp", rule_no_outputs},
    {"VarIsInitializedOp", si_rule_scalar},
    {"DestroyResourceOp", rule_no_outputs},
    {"ResourceGather", rule_resource_gather},
    {"ResourceScatterAdd", rule_no_outputs},
    {"ResourceScatterUpdate", rule_no_outputs},
    {"VariableV2", si_rule_explicit_shape},
    {"TemporaryVariable", si_rule_explicit_shape},
    {"DestroyTemporaryVariable", si_rule_unchanged},
    {"Assign", rule_assign},
    {"AssignAdd", si_rule_merge_both},
    {"AssignSub", si_rule_merge_both},
    {"RefIdentity", si_rule_unchanged},
    {"IsVariableInitialized", si_rule_scalar},
    /* TensorLists and optionals */
    {"EmptyTensorList", rule_variant_scalars},
    {"TensorListReserve", rule_variant_scalars},
    {"TensorListFromTensor", rule_variant_scalars},
    {"TensorListSetItem", rule_variant_scalars},
    {"TensorListPushBack", rule_variant_scalars},
    {"TensorListResize", rule_variant_scalars},
    {"TensorListScatter", rule_variant_scalars},
    {"TensorListScatterV2", rule_variant_scalars},
    {"TensorListScatterIntoExistingList", rule_variant_scalars},
    {"TensorListSplit", rule_variant_scalars},
    {"TensorListConcatLists", rule_variant_scalars},
    {"TensorListLength", si_rule_scalar},
    {"TensorListPushBackBatch", rule_push_back_batch},
    {"TensorListStack", rule_list_stack},
    {"TensorListGetItem", rule_list_get_item},
    {"TensorListPopBack", rule_list_pop_back},
    {"TensorListGather", rule_list_gather},
    {"TensorListConcat", rule_list_concat},
    {"TensorListConcatV2", rule_list_concat},
    {"TensorListElementShape", rule_list_element_shape},
    {"OptionalFromValue", si_rule_scalar},
    {"OptionalNone", si_rule_scalar},
    {"OptionalHasValue", si_rule_scalar},
    {"OptionalGetValue", rule_explicit_shapes},
    /* TensorArrays */
    {"TensorArrayV3", rule_ta_new}, {"TensorArrayGradV3", rule_ta_grad},
    {"TensorArrayGradWithShape", rule_ta_grad},
    {"TensorArrayWriteV3", rule_ta_flow_out},
    {"TensorArrayScatterV3", rule_ta_flow_out},
    {"TensorArraySplitV3", rule_ta_flow_out},
    {"TensorArrayReadV3", rule_ta_read},
    {"TensorArrayGatherV3", rule_ta_gather},
    {"TensorArrayConcatV3", rule_ta_concat},
    {"TensorArraySizeV3", rule_ta_size},
    {"TensorArrayCloseV3", rule_ta_close},
    /* TF 1 stacks */
    {"StackV2", rule_stack_new}, {"StackPushV2", rule_stack_push},
    {"StackPopV2", si_rule_unknown}, {"StackCloseV2", rule_ta_close},
    /* collectives */
    {"CollectiveReduce", si_rule_unchanged},
    {"CollectiveReduceV2", si_rule_unchanged},
    {"CollectiveReduceV3", si_rule_unchanged},
    {"CollectiveBcastSend", si_rule_unchanged},
    {"CollectiveBcastSendV2", si_rule_unchanged},
    {"CollectiveBcastRecv", si_rule_explicit_shape},
    {"CollectiveBcastRecvV2", rule_bcast_recv_v2},
    {"CollectiveGather", rule_collective_gather},
    {"CollectiveGatherV2", rule_collective_gather},
    {"CollectiveReduceScatterV2", rule_collective_gather},
    {"CollectiveAllToAllV2", si_rule_unchanged},
    {"CollectiveAllToAllV3", si_rule_unchanged},
    {"CollectiveAssignGroupV2", rule_collective_assign_group},
    {"CollectiveInitializeCommunicator", si_rule_scalar},
    /* v1 control flow */
    {"Switch", rule_switch}, {"RefSwitch", rule_switch},
    {"Merge", rule_merge}, {"RefMerge", rule_merge},
    {"Enter", rule_enter}, {"RefEnter", rule_enter},
    {"Exit", si_rule_unchanged}, {"RefExit", si_rule_unchanged},
    {"NextIteration", si_rule_unchanged},
    {"RefNextIteration", si_rule_unchanged},
    {"LoopCond", rule_loop_cond}, {"ControlTrigger", rule_no_outputs},
    {"NoOp", rule_no_outputs}, {"Abort", rule_no_outputs},
    /* function calls and functional control flow: the callee's outputs
     * are only known by running inference through its body. */
    {"PartitionedCall", rule_call},
    {"StatefulPartitionedCall", rule_call},
    {"If", rule_if}, {"StatelessIf", rule_if}, {"Case", rule_if},
    {"StatelessCase", rule_if}, {"While", rule_while},
    {"StatelessWhile", rule_while}, {"_Arg", rule_arg},
    {"_Retval", rule_no_outputs},
    /* queues */
    {"FIFOQueueV2", si_rule_scalar}, {"PaddingFIFOQueueV2", si_rule_scalar},
    {"RandomShuffleQueueV2", si_rule_scalar},
    {"PriorityQueueV2", si_rule_scalar},
    {"FIFOQueue", rule_queue_v1_handle},
    {"PaddingFIFOQueue", rule_queue_v1_handle},
    {"RandomShuffleQueue", rule_queue_v1_handle},
    {"QueueEnqueueV2", rule_no_outputs},
    {"QueueEnqueueManyV2", rule_no_outputs},
    {"QueueDequeueV2", NULL}, {"QueueDequeueManyV2", rule_dequeue_many},
    {"QueueDequeueUpToV2", rule_dequeue_many},
    {"QueueCloseV2", rule_no_outputs},
    {"QueueSizeV2", si_rule_scalar}, {"QueueIsClosedV2", si_rule_scalar},
    /* v1 queues (string handles) */
    {"QueueEnqueue", rule_no_outputs}, {"QueueEnqueueMany", rule_no_outputs},
    {"QueueDequeue", NULL}, {"QueueDequeueMany", NULL},
    {"QueueDequeueUpTo", NULL}, {"QueueClose", rule_no_outputs},
    {"QueueSize", rule_queue_v1_scalar},
    {"QueueIsClosed", rule_queue_v1_scalar},
    /* parallel device */
    {"TPUReplicatedInput", rule_replicated_input},
    {"TPUReplicatedOutput", rule_replicated_output},
    {"DeviceID", si_rule_scalar},
    {NULL, NULL}};
