/* TF's MutableDenseHashTable store (lookup_dense.c): open addressing over
 * power-of-two bucket arrays with quadratic probing, an "empty" and a
 * "deleted" key marking free and removed buckets, TF's key hash (the key
 * itself for integers, TF's legacy Hash64 for strings, Hash64Combine over
 * the elements of a vector key) and its growth rule (double while the
 * entries would pass max_load_factor), so the exported bucket arrays are
 * TF's, position for position. Keys are scalars or vectors of key_size
 * elements (string, int32 or int64); values scalars or vectors of
 * value_size elements (string, bool, int32, int64, float, double). Plain
 * memory only. Not thread-safe: the kernels hold the table's lock. Errors
 * carry TF's codes and messages. */
#ifndef TFE_KERNELS_CPU_LOOKUP_DENSE_H_
#define TFE_KERNELS_CPU_LOOKUP_DENSE_H_

#include <stdint.h>

#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

typedef struct lk_dense lk_dense;

/* A new table: empty_key and deleted_key tensors (scalars or vectors of
 * one shape), a value shape of rank vrank (0 or 1) with vdim elements,
 * initial_num_buckets and max_load_factor checked as TF checks them. NULL
 * with s set on failure. */
lk_dense* lk_dense_new(TF_DataType kdt, TF_DataType vdt,
                       const TF_Tensor* empty_key,
                       const TF_Tensor* deleted_key, int64_t vdim,
                       int64_t num_buckets, float max_load_factor,
                       TF_Status* s);
void lk_dense_free(lk_dense* d);

int lk_dense_key_rank(const lk_dense* d);
int64_t lk_dense_key_size(const lk_dense* d);
int64_t lk_dense_size(const lk_dense* d);
int64_t lk_dense_num_buckets(const lk_dense* d);

/* keys: rank 0 (one key) or [n] + key shape. out: [n] + value shape,
 * allocated by the caller. def: the default value (its first value_size
 * elements are used). */
int lk_dense_find(const lk_dense* d, const TF_Tensor* keys, TF_Tensor* out,
                  const TF_Tensor* def, TF_Status* s);
int lk_dense_insert(lk_dense* d, const TF_Tensor* keys, const TF_Tensor* vals,
                    TF_Status* s);
int lk_dense_remove(lk_dense* d, const TF_Tensor* keys, TF_Status* s);
/* Replaces the buckets: keys [b, key_size], values [b, value_size]. */
int lk_dense_import(lk_dense* d, const TF_Tensor* keys, const TF_Tensor* vals,
                    TF_Status* s);
/* Copies the buckets into keys [b, key_size] and values [b, value_size]
 * (allocated by the caller). */
void lk_dense_export(const lk_dense* d, TF_Tensor* keys, TF_Tensor* vals);

#endif /* TFE_KERNELS_CPU_LOOKUP_DENSE_H_ */
