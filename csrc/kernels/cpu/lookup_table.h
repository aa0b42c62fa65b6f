/* The store behind tfe's lookup tables (csrc/kernels/cpu/lookup_kernels.c):
 * a hash map from scalar keys (string, int32 or int64) to values of a fixed
 * number of elements (one for the scalar tables, value_shape[0] for
 * MutableHashTableOfTensors) of dtype string, bool, int32, int64, float,
 * double or variant (a reference to each object is held). Entries live in
 * dense arrays (export order is insertion order, with a removed entry
 * replaced by the last one); an open-addressing index of entry numbers
 * finds them. It holds no TF_Tensor (only plain memory and variant object
 * references), so a table never keeps tensors alive. Not thread-safe by
 * itself: the kernels hold the table's lock. Implementation:
 * lookup_table.c. */
#ifndef TFE_KERNELS_CPU_LOOKUP_TABLE_H_
#define TFE_KERNELS_CPU_LOOKUP_TABLE_H_

#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/tf_datatype.h"
#include "tensorflow/c/tf_tensor.h"

/* An owned byte string (strings may hold NULs). */
typedef struct lk_bytes {
  char* p;
  size_t n;
} lk_bytes;

/* A key read from a tensor element (borrowed bytes for strings). */
typedef struct lk_key {
  int64_t i;
  const char* p;
  size_t n;
} lk_key;

typedef struct lk_map {
  TF_DataType kdt, vdt;
  int64_t vdim;   /* value elements per key (>= 0) */
  size_t vesize;  /* bytes per value element (POD dtypes) */
  int64_t n, cap; /* entries */
  int64_t* ikeys; /* int keys (int32 widened) */
  lk_bytes* skeys;
  uint64_t* hashes;
  unsigned char* vals; /* POD values: n * vdim * vesize bytes */
  lk_bytes* svals;     /* string values: n * vdim */
  /* Index: entry number, -1 empty, -2 removed; nslots a power of 2. */
  int64_t* slots;
  int64_t nslots, nused; /* nused counts entries and removed marks */
} lk_map;

/* Empty map (no allocation yet). */
void lk_map_init(lk_map* m, TF_DataType kdt, TF_DataType vdt, int64_t vdim);
void lk_map_free(lk_map* m);
void lk_map_clear(lk_map* m);

/* Key i of tensor t (dtype m->kdt, checked by the caller). */
lk_key lk_key_at(const lk_map* m, const TF_Tensor* t, int64_t i);

/* Entry index of key, or -1. */
int64_t lk_map_find(const lk_map* m, lk_key key);

/* Copies entry e's value (vdim elements) to element block `at` of dst
 * (dtype m->vdt; strings assigned). */
void lk_map_copy_value(const lk_map* m, int64_t e, TF_Tensor* dst,
                       int64_t at);
/* Copies value block `from` of src to block `at` of dst. */
void lk_copy_block(TF_DataType vdt, int64_t vdim, const TF_Tensor* src,
                   int64_t from, TF_Tensor* dst, int64_t at);

/* Inserts key with value block `at` of tensor `vals`, or updates an
 * existing entry. When keep_first is set an existing entry stays, and
 * *conflict is set to its index when its value differs (TF's static
 * HashTable); *conflict is -1 otherwise. Returns 0 when memory runs out
 * (the map is unchanged). */
int lk_map_put(lk_map* m, lk_key key, const TF_Tensor* vals, int64_t at,
               int keep_first, int64_t* conflict);
/* Same, with the value given as one element (scalar tables; used by the
 * text-file initializer): POD bytes in `pod`, or a string. */
int lk_map_put_scalar(lk_map* m, lk_key key, const void* pod,
                      const char* sp, size_t sn, int keep_first,
                      int64_t* conflict);

/* Removes key if present. */
void lk_map_remove(lk_map* m, lk_key key);

/* Appends TF's rendering of key / of entry e's value / of a given value
 * element to buf (as the messages of the static HashTable show them). */
void lk_key_text(const lk_map* m, lk_key key, char* buf, size_t cap);
void lk_value_text(const lk_map* m, int64_t e, char* buf, size_t cap);
void lk_tensor_value_text(TF_DataType vdt, const TF_Tensor* t, int64_t i,
                          char* buf, size_t cap);
void lk_scalar_value_text(TF_DataType vdt, const void* pod, const char* sp,
                          size_t sn, char* buf, size_t cap);

#endif /* TFE_KERNELS_CPU_LOOKUP_TABLE_H_ */
