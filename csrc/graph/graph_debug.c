/* TF_GraphDebugString (c_api_experimental.h): the graph as a GraphDef in
 * protobuf text format, the way TF's DebugString prints it (two-space
 * indentation, map entries by key, DT_ enum names, C-escaped bytes). The
 * function library is printed as an empty `library` block; functions have
 * their own TF_FunctionDebugString. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/tensor_internal.h"
#include "graph/graph_internal.h"
#include "tensorflow/c/c_api_experimental.h"
#include "tensorflow/c/tf_tstring.h"

/* Plain malloc'd text: the caller frees the result with free(), as TF's
 * documentation says, so tfe's allocator is not used here. */
typedef struct text {
  char* p;
  size_t len, cap;
  int oom;
} text;

static void put(text* t, const char* s, size_t n) {
  if (t->oom) return;
  if (t->len + n + 1 > t->cap) {
    size_t cap = t->cap ? t->cap * 2 : 1024;
    char* q;
    while (cap < t->len + n + 1) cap *= 2;
    q = (char*)realloc(t->p, cap);
    if (q == NULL) {
      t->oom = 1;
      return;
    }
    t->p = q;
    t->cap = cap;
  }
  memcpy(t->p + t->len, s, n);
  t->len += n;
  t->p[t->len] = '\0';
}

static void puts_(text* t, const char* s) { put(t, s, strlen(s)); }

static void printf_(text* t, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void printf_(text* t, const char* fmt, ...) {
  char buf[128];
  va_list ap;
  int n;
  va_start(ap, fmt);
  n = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n > 0) put(t, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

static void indent(text* t, int depth) {
  int i;
  for (i = 0; i < depth; i++) put(t, "  ", 2);
}

static void open_block(text* t, int depth, const char* name) {
  indent(t, depth);
  puts_(t, name);
  puts_(t, " {\n");
}

static void close_block(text* t, int depth) {
  indent(t, depth);
  puts_(t, "}\n");
}

/* name: "C-escaped bytes" */
static void str_field(text* t, int depth, const char* name, const char* s,
                      size_t n) {
  size_t i;
  indent(t, depth);
  puts_(t, name);
  puts_(t, ": \"");
  for (i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    switch (c) {
      case '\n': puts_(t, "\\n"); break;
      case '\r': puts_(t, "\\r"); break;
      case '\t': puts_(t, "\\t"); break;
      case '"': puts_(t, "\\\""); break;
      case '\'': puts_(t, "\\'"); break;
      case '\\': puts_(t, "\\\\"); break;
      default:
        if (c < 0x20 || c >= 0x7f) {
          printf_(t, "\\%03o", c);
        } else {
          put(t, (const char*)&c, 1);
        }
    }
  }
  puts_(t, "\"\n");
}

static void dtype_field(text* t, int depth, const char* name, TF_DataType dt) {
  indent(t, depth);
  printf_(t, "%s: %s\n", name, tfe_dtype_enum_name(dt));
}

/* The shortest %g rendering that reads back as the same float. */
static void float_field(text* t, int depth, const char* name, float f) {
  char buf[40];
  int prec;
  for (prec = 6; prec <= 9; prec++) {
    snprintf(buf, sizeof buf, "%.*g", prec, (double)f);
    if ((float)strtod(buf, NULL) == f) break;
  }
  indent(t, depth);
  printf_(t, "%s: %s\n", name, buf);
}

static void shape_block(text* t, int depth, const char* name,
                        const int64_t* dims, int num_dims) {
  int i;
  open_block(t, depth, name);
  if (num_dims < 0) {
    indent(t, depth + 1);
    puts_(t, "unknown_rank: true\n");
  }
  for (i = 0; i < num_dims; i++) {
    open_block(t, depth + 1, "dim");
    indent(t, depth + 2);
    printf_(t, "size: %lld\n", (long long)dims[i]);
    close_block(t, depth + 1);
  }
  close_block(t, depth);
}

static void tensor_block(text* t, int depth, const char* name,
                         const TF_Tensor* x) {
  open_block(t, depth, name);
  if (x != NULL) {
    dtype_field(t, depth + 1, "dtype", x->dtype);
    shape_block(t, depth + 1, "tensor_shape", x->dims, x->num_dims);
    if (x->dtype == TF_STRING) {
      int64_t i, n = TF_TensorElementCount(x);
      const TF_TString* s = (const TF_TString*)TF_TensorData(x);
      for (i = 0; i < n; i++) {
        str_field(t, depth + 1, "string_val", TF_StringGetDataPointer(&s[i]),
                  TF_StringGetSize(&s[i]));
      }
    } else if (TF_TensorByteSize(x) > 0) {
      str_field(t, depth + 1, "tensor_content",
                (const char*)TF_TensorData(x), TF_TensorByteSize(x));
    }
  }
  close_block(t, depth);
}

static void func_block(text* t, int depth, const char* fname, const char* s,
                       size_t n) {
  open_block(t, depth, fname);
  str_field(t, depth + 1, "name", s, n);
  close_block(t, depth);
}

static void attr_value(text* t, int depth, const tfe_attr_value* v) {
  int i;
  if (v->is_list) {
    open_block(t, depth, "list");
    for (i = 0; i < v->list_size; i++) {
      switch (v->type) {
        case TF_ATTR_STRING:
          str_field(t, depth + 1, "s", v->list.s.data[i], v->list.s.len[i]);
          break;
        case TF_ATTR_INT:
          indent(t, depth + 1);
          printf_(t, "i: %lld\n", (long long)v->list.i[i]);
          break;
        case TF_ATTR_FLOAT:
          float_field(t, depth + 1, "f", v->list.f[i]);
          break;
        case TF_ATTR_BOOL:
          indent(t, depth + 1);
          puts_(t, v->list.b[i] ? "b: true\n" : "b: false\n");
          break;
        case TF_ATTR_TYPE:
          dtype_field(t, depth + 1, "type", v->list.type[i]);
          break;
        case TF_ATTR_SHAPE:
          shape_block(t, depth + 1, "shape", v->list.shape[i].dims,
                      v->list.shape[i].num_dims);
          break;
        case TF_ATTR_TENSOR:
          tensor_block(t, depth + 1, "tensor", v->list.tensor[i]);
          break;
        case TF_ATTR_FUNC:
          func_block(t, depth + 1, "func", v->list.s.data[i],
                     v->list.s.len[i]);
          break;
        default:
          break;
      }
    }
    close_block(t, depth);
    return;
  }
  switch (v->type) {
    case TF_ATTR_STRING:
      str_field(t, depth, "s", v->v.s.data, v->v.s.len);
      break;
    case TF_ATTR_INT:
      indent(t, depth);
      printf_(t, "i: %lld\n", (long long)v->v.i);
      break;
    case TF_ATTR_FLOAT:
      float_field(t, depth, "f", v->v.f);
      break;
    case TF_ATTR_BOOL:
      indent(t, depth);
      puts_(t, v->v.b ? "b: true\n" : "b: false\n");
      break;
    case TF_ATTR_TYPE:
      dtype_field(t, depth, "type", v->v.type);
      break;
    case TF_ATTR_SHAPE:
      shape_block(t, depth, "shape", v->v.shape.dims, v->v.shape.num_dims);
      break;
    case TF_ATTR_TENSOR:
      tensor_block(t, depth, "tensor", v->v.tensor);
      break;
    case TF_ATTR_PLACEHOLDER:
      str_field(t, depth, "placeholder", v->v.s.data, v->v.s.len);
      break;
    case TF_ATTR_FUNC:
      func_block(t, depth, "func", v->v.s.data, v->v.s.len);
      break;
    default:
      break;
  }
}

static void node_block(text* t, const TF_Operation* op) {
  int i;
  char idx[24];
  open_block(t, 0, "node");
  str_field(t, 1, "name", op->name, strlen(op->name));
  str_field(t, 1, "op", op->op_type, strlen(op->op_type));
  for (i = 0; i < op->num_inputs; i++) {
    const TF_Operation* src = op->inputs[i].oper;
    const char* n = src != NULL ? src->name : "";
    indent(t, 1);
    puts_(t, "input: \"");
    puts_(t, n);
    if (op->inputs[i].index != 0) {
      snprintf(idx, sizeof idx, ":%d", op->inputs[i].index);
      puts_(t, idx);
    }
    puts_(t, "\"\n");
  }
  for (i = 0; i < op->num_control_inputs; i++) {
    indent(t, 1);
    puts_(t, "input: \"^");
    puts_(t, op->control_inputs[i]->name);
    puts_(t, "\"\n");
  }
  if (op->device != NULL && op->device[0] != '\0') {
    str_field(t, 1, "device", op->device, strlen(op->device));
  }
  /* attrs are kept sorted by name, the order TF's printer uses */
  for (i = 0; i < op->attrs.count; i++) {
    open_block(t, 1, "attr");
    str_field(t, 2, "key", op->attrs.items[i].name,
              strlen(op->attrs.items[i].name));
    open_block(t, 2, "value");
    attr_value(t, 3, &op->attrs.items[i].value);
    close_block(t, 2);
    close_block(t, 1);
  }
  close_block(t, 0);
}

const char* TF_GraphDebugString(TF_Graph* graph, size_t* len) {
  text t = {NULL, 0, 0, 0};
  int i;
  if (len != NULL) *len = 0;
  if (graph == NULL) return NULL;
  pthread_mutex_lock(&graph->mu);
  for (i = 0; i < graph->num_ops && !t.oom; i++) node_block(&t, graph->ops[i]);
  puts_(&t, "library {\n}\n");
  puts_(&t, "versions {\n");
  if (graph->producer != 0) printf_(&t, "  producer: %d\n", graph->producer);
  if (graph->min_consumer != 0) {
    printf_(&t, "  min_consumer: %d\n", graph->min_consumer);
  }
  puts_(&t, "}\n");
  pthread_mutex_unlock(&graph->mu);
  if (t.oom) {
    free(t.p);
    return NULL;
  }
  if (len != NULL) *len = t.len;
  return t.p;
}
