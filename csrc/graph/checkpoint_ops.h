/* The checkpoint formats behind the save and restore ops (SaveV2,
 * RestoreV2, MergeV2Checkpoints, Save, SaveSlices, Restore, RestoreSlice):
 *
 *  - tensor slices (TensorFlow's TensorSlice: per dim a start and a length,
 *    or "full"), their text form "0,2:-", the "shape_and_slice" strings of
 *    the ops ("4 5 0,2:-"), TensorSliceProto, and the ordered-code keys
 *    under which a checkpoint stores a slice (checkpoint_slices.c);
 *  - the V2 format ("tensor bundle": P.index, a sorted table of
 *    BundleEntryProto records, plus data shards P.data-NNNNN-of-MMMMM):
 *    a writer, a reader that assembles slices, and the merge of several
 *    bundles into one (checkpoint_writer.c, checkpoint_bundle.c);
 *  - the V1 format (one sorted table per file: SavedTensorSlices records
 *    whose slices hold TensorProto values), written by Save/SaveSlices and
 *    read by Restore/RestoreSlice and RestoreV2's fallback
 *    (checkpoint_v1.c).
 *
 * Every function reports failures through `status` with TensorFlow's codes
 * and messages; none aborts on malformed input. Files go through the
 * filesystem registry (csrc/fs), so every registered scheme works. */
#ifndef TFE_GRAPH_CHECKPOINT_OPS_H_
#define TFE_GRAPH_CHECKPOINT_OPS_H_

#include <stddef.h>
#include <stdint.h>

#include "core/pb.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

/* ------------------------------------------------------------------------
 * Slices. */

/* A slice of a tensor: per dim a start and a length; length -1 with start
 * 0 means the whole dim. `se` holds 2 * rank values (start, length, ...),
 * tfe_malloc'd (NULL when rank is 0); release with tfe_tslice_free. */
typedef struct tfe_tslice {
  int rank;
  int64_t* se;
} tfe_tslice;

#define TFE_TSLICE_FULL (-1)

void tfe_tslice_free(tfe_tslice* s);
/* A full slice of `rank` dims. 0 when memory runs out. */
int tfe_tslice_init_full(tfe_tslice* s, int rank);
int tfe_tslice_copy(tfe_tslice* dst, const tfe_tslice* src);
int tfe_tslice_is_full_at(const tfe_tslice* s, int d);
int tfe_tslice_is_full(const tfe_tslice* s);
int tfe_tslice_equal(const tfe_tslice* a, const tfe_tslice* b);
/* TensorFlow's text form: "-" for a full dim, "start,length" otherwise,
 * joined by ':'. Appends to b. */
void tfe_tslice_debug(const tfe_tslice* s, tfe_pbw* b);
/* Parses the text form (empty items are skipped, as TF does). */
int tfe_tslice_parse(const char* str, size_t n, tfe_tslice* out,
                     TF_Status* status);
/* The shape the slice cuts out of `dims` (INTERNAL on a rank mismatch or
 * an extent past the end, as TF). *out gets rank entries (tfe_malloc'd,
 * NULL for rank 0). */
int tfe_tslice_shape(const tfe_tslice* s, const int64_t* dims, int rank,
                     int64_t** out, TF_Status* status);
/* 1 when the slice covers the whole of `dims` (TF's IsFullSlice). */
int tfe_tslice_covers(const tfe_tslice* s, const int64_t* dims, int rank);
/* Intersection of a and b (same rank): 1 and *out set when they overlap. */
int tfe_tslice_intersect(const tfe_tslice* a, const tfe_tslice* b,
                         tfe_tslice* out);
/* TensorSliceProto bytes of the slice (an empty Extent for a full dim). */
void tfe_tslice_to_proto(const tfe_tslice* s, tfe_pbw* b);
/* Parses a TensorSliceProto; 0 when malformed or an extent is invalid. */
int tfe_tslice_from_proto(const unsigned char* p, size_t n, tfe_tslice* out);
/* The key a checkpoint stores slice `s` of tensor `name` under. */
void tfe_tslice_encode_key(const char* name, size_t name_len,
                           const tfe_tslice* s, tfe_pbw* b);

/* TensorFlow's ParseShapeAndSlice: "dim0 dim1 ... slice". On success
 * *full_dims / *slice_dims (rank entries each, tfe_malloc'd) and *slice
 * are set. */
int tfe_parse_shape_and_slice(const char* str, size_t n, int64_t** full_dims,
                              int* rank, tfe_tslice* slice,
                              int64_t** slice_dims, TF_Status* status);

/* Copies the intersection of slices src_slice and dst_slice of a tensor
 * of shape dims[rank] from src (laid out as src_slice's shape) to dst (laid
 * out as dst_slice's shape). Elements are `esize` bytes, or TF_TString
 * when dtype is TF_STRING. Returns 1 when the slices intersect (something
 * was copied), 0 otherwise. */
int tfe_tslice_copy_data(const int64_t* dims, int rank,
                         const tfe_tslice* src_slice,
                         const tfe_tslice* dst_slice, TF_DataType dtype,
                         size_t esize, const void* src, void* dst);

/* Renders dims as TF's TensorShape::DebugString ("[2,3]"). */
void tfe_ckpt_shape_str(const int64_t* dims, int rank, tfe_pbw* b);
/* TF's DataTypeString ("float", "int32", "string", ...). */
const char* tfe_ckpt_dtype_name(TF_DataType t);

/* ------------------------------------------------------------------------
 * V2 bundles: writing. */

typedef struct tfe_bundle_writer tfe_bundle_writer;

/* Starts a bundle at `prefix` (creates prefix's directory if missing, as
 * TF's BundleWriter does; its parent must exist). Data go to a temporary
 * file renamed to P.data-00000-of-00001 by finish. NULL on failure. */
tfe_bundle_writer* tfe_bundle_writer_new(const char* prefix,
                                         TF_Status* status);
/* Adds a whole tensor under `key` (INVALID_ARGUMENT "Adding duplicate key:
 * K" when taken). Strings, every fixed-size dtype; variant and resource
 * tensors are refused. */
int tfe_bundle_writer_add(tfe_bundle_writer* w, const char* key,
                          size_t key_len, const TF_Tensor* t,
                          TF_Status* status);
/* Adds `t` as slice `slice` of tensor `key` of shape full[rank] (a slice
 * covering everything is a plain add, as in TF). */
int tfe_bundle_writer_add_slice(tfe_bundle_writer* w, const char* key,
                                size_t key_len, const int64_t* full, int rank,
                                const tfe_tslice* slice, const TF_Tensor* t,
                                TF_Status* status);
/* Closes the data file, renames it into place and writes P.index. */
int tfe_bundle_writer_finish(tfe_bundle_writer* w, TF_Status* status);
/* Frees the writer; an unfinished writer's temporary file is deleted. */
void tfe_bundle_writer_free(tfe_bundle_writer* w);

/* MergeV2Checkpoints' merge of the bundles at prefixes[n] into `merged`
 * (renames data shards, writes merged.index, deletes the inputs'
 * indexes). */
int tfe_bundle_merge(const char* const* prefixes, int n, const char* merged,
                     int allow_missing_files, TF_Status* status);

/* ------------------------------------------------------------------------
 * V2 bundles: reading (what RestoreV2 needs, slices included). */

typedef struct tfe_bundle_reader tfe_bundle_reader;

tfe_bundle_reader* tfe_bundle_reader_open(const char* prefix,
                                          TF_Status* status);
void tfe_bundle_reader_free(tfe_bundle_reader* r);
/* dtype and full shape of tensor `key` (*dims tfe_malloc'd, rank entries).
 * NOT_FOUND "Key K not found in checkpoint" when absent. */
int tfe_bundle_reader_meta(tfe_bundle_reader* r, const char* key,
                           size_t key_len, TF_DataType* dtype, int64_t** dims,
                           int* rank, TF_Status* status);
/* Reads slice `spec` (NULL: the whole tensor) of tensor `key` into `out`,
 * allocated by the caller with the slice's shape and the tensor's dtype. */
int tfe_bundle_reader_read(tfe_bundle_reader* r, const char* key,
                           size_t key_len, const tfe_tslice* spec,
                           TF_Tensor* out, TF_Status* status);

/* ------------------------------------------------------------------------
 * V1 checkpoints (TensorSliceWriter / TensorSliceReader files). */

/* One tensor to save: name, the full shape, the slice `t` holds. */
typedef struct tfe_v1_item {
  const char* name;
  size_t name_len;
  const int64_t* full_dims;
  int rank;
  const tfe_tslice* slice;
  const TF_Tensor* t;
} tfe_v1_item;

/* Writes a V1 checkpoint file `filename` (through a temporary file). */
int tfe_v1_save(const char* filename, const tfe_v1_item* items, int n,
                TF_Status* status);

typedef struct tfe_v1_reader tfe_v1_reader;

/* Opens every file matching `pattern` (TF's TensorSliceReader). */
tfe_v1_reader* tfe_v1_reader_open(const char* pattern, TF_Status* status);
void tfe_v1_reader_free(tfe_v1_reader* r);
/* 1 with dtype and shape (borrowed) when the tensor is known. */
int tfe_v1_reader_has(tfe_v1_reader* r, const char* name, size_t len,
                      TF_DataType* dtype, const int64_t** dims, int* rank);
/* Copies slice `spec` of `name` into `out` (allocated with the slice's
 * shape). 0 with INVALID_ARGUMENT "Error copying slice data" when the
 * stored slices do not cover it or a record is bad. */
int tfe_v1_reader_copy(tfe_v1_reader* r, const char* name, size_t len,
                       const tfe_tslice* spec, TF_Tensor* out,
                       TF_Status* status);


/* ------------------------------------------------------------------------
 * Internal to csrc/graph/checkpoint_*.c: BundleEntryProto records and
 * small filesystem helpers. */

typedef struct tfe_bundle_entry {
  int dtype;
  int has_shape;
  int rank;
  int64_t* dims; /* tfe_malloc'd, rank entries */
  int shape_unknown_rank;
  int32_t shard_id;
  int64_t offset, size;
  uint32_t crc32c; /* masked, as stored */
  tfe_pbw slices;  /* concatenated TensorSliceProto payloads, each
                      preceded by its varint length */
  int num_slices;
} tfe_bundle_entry;

/* 1 parsed, 0 malformed, -1 out of memory. */
int tfe_bundle_entry_parse(const unsigned char* p, size_t n,
                           tfe_bundle_entry* e);
/* Serializes as TensorFlow does (fields in number order, zeros left out). */
void tfe_bundle_entry_serialize(const tfe_bundle_entry* e, tfe_pbw* b);
void tfe_bundle_entry_clear(tfe_bundle_entry* e);
/* Appends one TensorSliceProto payload to e->slices. */
void tfe_bundle_entry_add_slice(tfe_bundle_entry* e, const unsigned char* p,
                                size_t n);
/* The i-th slice payload of e (0 <= i < num_slices). */
int tfe_bundle_entry_slice(const tfe_bundle_entry* e, int i,
                           const unsigned char** p, size_t* n);

/* P.data-%05d-of-%05d and P.index, tfe_malloc'd (NULL when out of
 * memory). */
char* tfe_ckpt_data_filename(const char* prefix, int shard, int num_shards);
char* tfe_ckpt_index_filename(const char* prefix);
/* TensorFlow's io::Dirname (tfe_malloc'd; "" when there is no '/'). */
char* tfe_ckpt_dirname(const char* path);
/* "<path>.tempstate<random>", tfe_malloc'd. */
char* tfe_ckpt_temp_name(const char* path);
/* Reads a whole file through the filesystem registry (tfe_malloc'd, at
 * least one byte allocated). */
unsigned char* tfe_ckpt_read_file(const char* path, size_t* len,
                                  TF_Status* status);
/* Writes bytes to a file through the registry (created or truncated). */
int tfe_ckpt_write_file(const char* path, const void* data, size_t len,
                        TF_Status* status);
/* TF's Status::ToString for a status: "OK" or "<CODE NAME>: message". */
void tfe_ckpt_status_string(const TF_Status* s, tfe_pbw* b);

#endif /* TFE_GRAPH_CHECKPOINT_OPS_H_ */
