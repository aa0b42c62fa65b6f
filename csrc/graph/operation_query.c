/* Queries of finished graph operations: name, type, device, inputs and
 * outputs with their dtypes, list lengths by arg name, consumers, control
 * edges, and TF_OperationToNodeDef.
 *
 * Functions without a TF_Status accept a NULL operation (or an output
 * index out of range) and return a neutral value (NULL, 0, -1 or a
 * {NULL, -1} output) where TF would crash. Edge lists are read under the
 * graph's lock, since later operations add consumers and control outputs
 * to earlier ones. */
#include <string.h>

#include "core/alloc.h"
#include "core/pb.h"
#include "core/status_internal.h"
#include "graph/graph_internal.h"
#include "ops/proto_encode.h"

const char* TF_OperationName(TF_Operation* oper) {
  return oper != NULL ? oper->name : NULL;
}

const char* TF_OperationOpType(TF_Operation* oper) {
  return oper != NULL ? oper->op_type : NULL;
}

const char* TF_OperationDevice(TF_Operation* oper) {
  return oper != NULL ? oper->device : NULL;
}

int TF_OperationNumOutputs(TF_Operation* oper) {
  return oper != NULL ? oper->num_outputs : 0;
}

TF_DataType TF_OperationOutputType(TF_Output oper_out) {
  if (oper_out.oper == NULL || oper_out.index < 0 ||
      oper_out.index >= oper_out.oper->num_outputs) {
    return (TF_DataType)0;
  }
  return oper_out.oper->output_types[oper_out.index];
}

int TF_OperationNumInputs(TF_Operation* oper) {
  return oper != NULL ? oper->num_inputs : 0;
}

TF_DataType TF_OperationInputType(TF_Input oper_in) {
  if (oper_in.oper == NULL || oper_in.index < 0 ||
      oper_in.index >= oper_in.oper->num_inputs) {
    return (TF_DataType)0;
  }
  return oper_in.oper->input_types[oper_in.index];
}

/* Length of arg `arg_name` among args[0..n) under the op's attrs. */
static int list_length(TF_Operation* oper, const char* arg_name, int inputs,
                       TF_Status* status) {
  const tfe_arg_def* args;
  int i, n, len;
  if (oper == NULL || arg_name == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "%s: the operation and arg_name must not be NULL",
                    inputs ? "TF_OperationInputListLength"
                           : "TF_OperationOutputListLength");
    return -1;
  }
  args = inputs ? oper->def->inputs : oper->def->outputs;
  n = inputs ? oper->def->num_inputs : oper->def->num_outputs;
  for (i = 0; i < n; i++) {
    if (strcmp(args[i].name, arg_name) != 0) continue;
    if (!tfe_op_def_arg_length(oper->def, &args[i], &oper->attrs, &len,
                               status)) {
      return -1;
    }
    tfe_status_ok(status);
    return len;
  }
  tfe_status_setf(status, TF_INVALID_ARGUMENT, "%s arg '%s' not found",
                  inputs ? "Input" : "Output", arg_name);
  return -1;
}

int TF_OperationOutputListLength(TF_Operation* oper, const char* arg_name,
                                 TF_Status* status) {
  return list_length(oper, arg_name, 0, status);
}

int TF_OperationInputListLength(TF_Operation* oper, const char* arg_name,
                                TF_Status* status) {
  return list_length(oper, arg_name, 1, status);
}

TF_Output TF_OperationInput(TF_Input oper_in) {
  TF_Output none = {NULL, -1};
  TF_Output r;
  TF_Operation* op = oper_in.oper;
  if (op == NULL || oper_in.index < 0 || oper_in.index >= op->num_inputs) {
    return none;
  }
  pthread_mutex_lock(&op->graph->mu);
  r = op->inputs[oper_in.index];
  pthread_mutex_unlock(&op->graph->mu);
  return r;
}

void TF_OperationAllInputs(TF_Operation* oper, TF_Output* inputs,
                           int max_inputs) {
  int n;
  if (oper == NULL || inputs == NULL || max_inputs <= 0) return;
  n = oper->num_inputs < max_inputs ? oper->num_inputs : max_inputs;
  pthread_mutex_lock(&oper->graph->mu);
  if (n > 0) memcpy(inputs, oper->inputs, (size_t)n * sizeof(TF_Output));
  pthread_mutex_unlock(&oper->graph->mu);
}

int TF_OperationOutputNumConsumers(TF_Output oper_out) {
  int n;
  TF_Operation* op = oper_out.oper;
  if (op == NULL || oper_out.index < 0 || oper_out.index >= op->num_outputs) {
    return 0;
  }
  pthread_mutex_lock(&op->graph->mu);
  n = op->num_consumers[oper_out.index];
  pthread_mutex_unlock(&op->graph->mu);
  return n;
}

int TF_OperationOutputConsumers(TF_Output oper_out, TF_Input* consumers,
                                int max_consumers) {
  int n, k;
  TF_Operation* op = oper_out.oper;
  if (op == NULL || oper_out.index < 0 || oper_out.index >= op->num_outputs) {
    return 0;
  }
  pthread_mutex_lock(&op->graph->mu);
  n = op->num_consumers[oper_out.index];
  k = n < max_consumers ? n : max_consumers;
  if (consumers != NULL && k > 0) {
    memcpy(consumers, op->consumers[oper_out.index],
           (size_t)k * sizeof(TF_Input));
  }
  pthread_mutex_unlock(&op->graph->mu);
  return n;
}

int TF_OperationNumControlInputs(TF_Operation* oper) {
  int n;
  if (oper == NULL) return 0;
  pthread_mutex_lock(&oper->graph->mu);
  n = oper->num_control_inputs;
  pthread_mutex_unlock(&oper->graph->mu);
  return n;
}

int TF_OperationGetControlInputs(TF_Operation* oper,
                                 TF_Operation** control_inputs,
                                 int max_control_inputs) {
  int n, k;
  if (oper == NULL) return 0;
  pthread_mutex_lock(&oper->graph->mu);
  n = oper->num_control_inputs;
  k = n < max_control_inputs ? n : max_control_inputs;
  if (control_inputs != NULL && k > 0) {
    memcpy(control_inputs, oper->control_inputs,
           (size_t)k * sizeof(TF_Operation*));
  }
  pthread_mutex_unlock(&oper->graph->mu);
  return n;
}

int TF_OperationNumControlOutputs(TF_Operation* oper) {
  int n;
  if (oper == NULL) return 0;
  pthread_mutex_lock(&oper->graph->mu);
  n = oper->num_control_outputs;
  pthread_mutex_unlock(&oper->graph->mu);
  return n;
}

int TF_OperationGetControlOutputs(TF_Operation* oper,
                                  TF_Operation** control_outputs,
                                  int max_control_outputs) {
  int n, k;
  if (oper == NULL) return 0;
  pthread_mutex_lock(&oper->graph->mu);
  n = oper->num_control_outputs;
  k = n < max_control_outputs ? n : max_control_outputs;
  if (control_outputs != NULL && k > 0) {
    memcpy(control_outputs, oper->control_outputs,
           (size_t)k * sizeof(TF_Operation*));
  }
  pthread_mutex_unlock(&oper->graph->mu);
  return n;
}

void TF_OperationToNodeDef(TF_Operation* oper, TF_Buffer* output_node_def,
                           TF_Status* status) {
  tfe_pbw out = {0};
  if (oper == NULL || output_node_def == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_OperationToNodeDef: the operation and the output "
                    "buffer must not be NULL");
    return;
  }
  pthread_mutex_lock(&oper->graph->mu);
  tfe_graph_encode_node_def(&out, oper);
  pthread_mutex_unlock(&oper->graph->mu);
  tfe_graph_put_buffer(&out, output_node_def, status,
                       "TF_OperationToNodeDef");
}
