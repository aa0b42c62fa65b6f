/* Attribute values: what an op's attrs hold (TFE_OpSetAttr*, defaults of op
 * definitions, what kernels read). Shared by ops/, eager/ and kernels/.
 * Implementation: csrc/ops/attr_value.c. */
#ifndef TFE_OPS_ATTR_VALUE_H_
#define TFE_OPS_ATTR_VALUE_H_

#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/tf_attrtype.h"
#include "tensorflow/c/tf_datatype.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

/* A shape attr. num_dims == -1 means unknown rank (dims NULL); a dim of -1
 * means unknown size. */
typedef struct tfe_shape {
  int num_dims;
  int64_t* dims; /* owned */
} tfe_shape;

/* One attr value: a scalar of `type`, or (is_list) a list of them.
 * Strings (TF_ATTR_STRING) and function names (TF_ATTR_FUNC) are byte
 * strings with explicit length, always also NUL-terminated. Everything is
 * owned by the value; release with tfe_attr_value_clear. */
typedef struct tfe_attr_value {
  TF_AttrType type;
  int is_list;
  int list_size; /* number of elements when is_list */
  union {
    int64_t i;
    float f;
    unsigned char b;
    TF_DataType type;
    struct {
      char* data;
      size_t len;
    } s;
    tfe_shape shape;
    TF_Tensor* tensor; /* owned reference */
  } v;
  union {
    int64_t* i;
    float* f;
    unsigned char* b;
    TF_DataType* type;
    struct {
      char** data;
      size_t* len;
    } s;
    tfe_shape* shape;
    TF_Tensor** tensor;
  } list;
} tfe_attr_value;

/* Frees what the value owns and zeroes it. */
void tfe_attr_value_clear(tfe_attr_value* v);
/* Deep copy into *dst (which is overwritten without being cleared).
 * Returns 0 when memory runs out (dst is then zeroed). */
int tfe_attr_value_copy(tfe_attr_value* dst, const tfe_attr_value* src);
/* Structural equality (tensors compare by dtype, shape and bytes). */
int tfe_attr_value_equal(const tfe_attr_value* a, const tfe_attr_value* b);
/* Hash consistent with tfe_attr_value_equal. */
uint64_t tfe_attr_value_hash(const tfe_attr_value* v);
/* Appends a TF-style rendering ("DT_FLOAT", "[1, 2]", "\"abc\"", "true",
 * "[?,3]", "<unknown>") to the NUL-terminated string already in buf (pass
 * buf[0] == '\0' to start fresh; a buf without a NUL in its first cap bytes
 * is overwritten from the start). The result is NUL-terminated and
 * truncated to cap. Used in messages. */
void tfe_attr_value_format(const tfe_attr_value* v, char* buf, size_t cap);

/* Constructors: fill *v (overwritten) from plain C values, copying
 * everything. Return 0 when memory runs out (*v is then zeroed). A NULL
 * array with n > 0 gives an empty list; set_tensor(NULL) returns 0; a
 * shape with num_dims < 0 is unknown rank, and NULL dims with num_dims > 0
 * means every dim unknown (-1). */
void tfe_attr_value_set_int(tfe_attr_value* v, int64_t x);
void tfe_attr_value_set_float(tfe_attr_value* v, float x);
void tfe_attr_value_set_bool(tfe_attr_value* v, unsigned char x);
void tfe_attr_value_set_type(tfe_attr_value* v, TF_DataType x);
int tfe_attr_value_set_string(tfe_attr_value* v, const void* s, size_t len);
int tfe_attr_value_set_func(tfe_attr_value* v, const char* name, size_t len);
/* A placeholder value (AttrValue.placeholder: the name of a function attr
 * a function body's node takes its value from, TF_SetAttrPlaceholder);
 * stored like a string, type TF_ATTR_PLACEHOLDER, never a list. */
int tfe_attr_value_set_placeholder(tfe_attr_value* v, const char* name,
                                   size_t len);
int tfe_attr_value_set_shape(tfe_attr_value* v, const int64_t* dims,
                             int num_dims);
/* Takes a new reference to t (shares its buffer). */
int tfe_attr_value_set_tensor(tfe_attr_value* v, const TF_Tensor* t);
int tfe_attr_value_set_int_list(tfe_attr_value* v, const int64_t* xs, int n);
int tfe_attr_value_set_float_list(tfe_attr_value* v, const float* xs, int n);
int tfe_attr_value_set_bool_list(tfe_attr_value* v, const unsigned char* xs,
                                 int n);
int tfe_attr_value_set_type_list(tfe_attr_value* v, const TF_DataType* xs,
                                 int n);
int tfe_attr_value_set_string_list(tfe_attr_value* v, const void* const* s,
                                   const size_t* lens, int n);
int tfe_attr_value_set_shape_list(tfe_attr_value* v,
                                  const int64_t* const* dims,
                                  const int* num_dims, int n);
int tfe_attr_value_set_tensor_list(tfe_attr_value* v, TF_Tensor* const* ts,
                                   int n);

/* ---- A set of named attrs (small; linear search by name). ---- */

typedef struct tfe_attr_entry {
  char* name; /* owned, unless name_static */
  tfe_attr_value value;
  /* 1: name is borrowed from a string that outlives the set (an attr
   * name of a registered op definition, see tfe_attrs_put_static) and is
   * never freed with the entry. Whoever removes an entry by hand (graph.c
   * TF_ClearAttr) must free the name only when this is 0. */
  int name_static;
} tfe_attr_entry;

typedef struct tfe_attrs {
  int count;
  int cap;
  tfe_attr_entry* items;
  /* 1: items lives in memory someone else owns (a graph operation's own
   * block, csrc/graph/operation.c): never freed or resized here; a new
   * entry moves the set to an array of its own first. */
  int items_borrowed;
} tfe_attrs;

void tfe_attrs_init(tfe_attrs* a);
/* Frees every entry; the set stays usable (empty). */
void tfe_attrs_clear(tfe_attrs* a);
/* Frees everything, including the item array. */
void tfe_attrs_destroy(tfe_attrs* a);
/* Entry by name or NULL. */
const tfe_attr_value* tfe_attrs_find(const tfe_attrs* a, const char* name);
/* Sets name = *value, taking ownership of *value's contents (the caller's
 * struct is zeroed). Replaces an existing entry. Returns 0 on OOM (value is
 * then cleared). */
int tfe_attrs_put(tfe_attrs* a, const char* name, tfe_attr_value* value);
/* Like tfe_attrs_put, but a new entry borrows `name` instead of copying
 * it: the string must outlive the set (registered op definitions' attr
 * names, which are never freed, qualify). */
int tfe_attrs_put_static(tfe_attrs* a, const char* name,
                         tfe_attr_value* value);
/* Deep copy of every entry of src into dst (replacing same names). */
int tfe_attrs_merge(tfe_attrs* dst, const tfe_attrs* src);
/* Order-independent hash / equality of the whole set. */
uint64_t tfe_attrs_hash(const tfe_attrs* a);
int tfe_attrs_equal(const tfe_attrs* a, const tfe_attrs* b);

/* Typed getters for kernels. Return 1 when the attr exists with that type,
 * else 0 and, when status is non-NULL, set it as TF's GetNodeAttr does:
 * NOT_FOUND "No attr named 'x' in NodeDef:" for a missing attr,
 * INVALID_ARGUMENT "AttrValue had value with type 'int' when 'float'
 * expected\n\t for attr 'x'" for the wrong kind. An empty list matches any
 * list getter. */
int tfe_attrs_get_int(const tfe_attrs* a, const char* name, int64_t* out,
                      TF_Status* status);
int tfe_attrs_get_float(const tfe_attrs* a, const char* name, float* out,
                        TF_Status* status);
int tfe_attrs_get_bool(const tfe_attrs* a, const char* name, int* out,
                       TF_Status* status);
int tfe_attrs_get_type(const tfe_attrs* a, const char* name, TF_DataType* out,
                       TF_Status* status);
/* Borrowed pointer to the NUL-terminated bytes (and length). */
int tfe_attrs_get_string(const tfe_attrs* a, const char* name,
                         const char** out, size_t* len, TF_Status* status);
/* Borrowed list (valid while the attrs live). */
int tfe_attrs_get_int_list(const tfe_attrs* a, const char* name,
                           const int64_t** out, int* n, TF_Status* status);
int tfe_attrs_get_type_list(const tfe_attrs* a, const char* name,
                            const TF_DataType** out, int* n,
                            TF_Status* status);
int tfe_attrs_get_shape(const tfe_attrs* a, const char* name,
                        const tfe_shape** out, TF_Status* status);

/* "DT_FLOAT" style name of a dtype ("DT_INVALID" for unknown), and the
 * grammar's short name ("float", "int32", ...; NULL for unknown). */
const char* tfe_dtype_enum_name(TF_DataType t);
const char* tfe_dtype_short_name(TF_DataType t);
/* Parses a grammar short name ("float", "bfloat16", "string", ...) or a
 * DT_ name. Returns 0 when unknown. */
int tfe_dtype_from_name(const char* name, size_t len, TF_DataType* out);

#endif /* TFE_OPS_ATTR_VALUE_H_ */
