/* What TF_LoadSessionFromSavedModel reads from a SavedModel
 * (saved_model_proto.c parses it, saved_model.c loads it).
 *
 * The messages, with the field numbers read here:
 *   SavedModel     1 saved_model_schema_version, 2 meta_graphs (repeated)
 *   MetaGraphDef   1 meta_info_def, 2 graph_def, 3 saver_def,
 *                  4 collection_def (map), 5 signature_def (map),
 *                  6 asset_file_def (repeated)
 *   MetaInfoDef    4 tags (repeated string)
 *   SaverDef       1 filename_tensor_name, 3 restore_op_name
 *   CollectionDef  oneof: 1 node_list {1 value}, 2 bytes_list, 3 int64_list,
 *                  4 float_list, 5 any_list {1 value: Any {1 url, 2 value}}
 *   SignatureDef   1 inputs (map), 2 outputs (map of TensorInfo)
 *   TensorInfo     oneof: 1 name, 4 coo_sparse, 5 composite_tensor
 *   AssetFileDef   1 tensor_info, 2 filename
 *   map entries    1 key, 2 value
 * Every string is a view into the bytes parsed (they must outlive it). */
#ifndef TFE_GRAPH_SAVED_MODEL_INTERNAL_H_
#define TFE_GRAPH_SAVED_MODEL_INTERNAL_H_

#include <stddef.h>

#include "tensorflow/c/c_api.h"

typedef struct tfe_sm_str {
  const char* p; /* not NUL-terminated; NULL when absent */
  size_t n;
} tfe_sm_str;

typedef struct tfe_sm_asset {
  tfe_sm_str tensor_name; /* AssetFileDef.tensor_info.name */
  tfe_sm_str filename;    /* AssetFileDef.filename */
} tfe_sm_asset;

/* A collection whose node_list the loader reads (init ops). */
typedef struct tfe_sm_node_list {
  int present; /* the key is in collection_def */
  int count;   /* node_list values (0 when another kind is set) */
  tfe_sm_str first;
} tfe_sm_node_list;

typedef struct tfe_sm_meta {
  /* The chosen MetaGraphDef as it is in the file (what the caller's
   * meta_graph_def buffer receives). */
  const unsigned char* bytes;
  size_t len;
  /* graph_def: a view, or `graph_def_owned` when the field occurs more
   * than once (protobuf merges them: their payloads are concatenated). */
  const unsigned char* graph_def;
  size_t graph_def_len;
  unsigned char* graph_def_owned;
  int has_saver_def;
  tfe_sm_str saver_filename_tensor;
  tfe_sm_str saver_restore_op;
  /* signature_def["__saved_model_init_op"] */
  int has_init_sig;
  int init_sig_has_output; /* its outputs["__saved_model_init_op"] exists */
  tfe_sm_str init_sig_name;
  tfe_sm_node_list main_op;   /* collection "saved_model_main_op" */
  tfe_sm_node_list legacy_op; /* collection "legacy_init_op" */
  /* asset_file_def entries, else the AssetFileDefs of the TF1
   * "saved_model_assets" collection (any_list). */
  tfe_sm_asset* assets;
  int num_assets;
  /* A "saved_model_assets" Any whose type is not tensorflow.AssetFileDef:
   * its type url (the load fails as TF's does). */
  int bad_asset_any;
  tfe_sm_str bad_asset_url;
} tfe_sm_meta;

/* Finds the MetaGraphDef whose tag set equals the given tags in the
 * serialized SavedModel data[0, len) read from `path` and parses what the
 * loader needs into *out (zeroed first; release with tfe_sm_meta_free).
 * Errors, as TF reports them: malformed bytes are DATA_LOSS "Can't parse
 * <path> as binary proto" (OUT_OF_RANGE "Read less bytes than requested"
 * when a length runs past the end of the file); no matching tags is
 * NOT_FOUND listing the tags. Returns 1 on success. */
int tfe_sm_find_meta_graph(const unsigned char* data, size_t len,
                           const char* path, const char* const* tags,
                           int tags_len, tfe_sm_meta* out, TF_Status* s);
void tfe_sm_meta_free(tfe_sm_meta* m);

/* saved_model.pbtxt (protobuf text format, text[0, len)) as a serialized
 * SavedModel (saved_model_text.c). Returns a tfe_malloc'd buffer and its
 * length, or NULL with DATA_LOSS "Can't parse <path> as text proto" (or
 * RESOURCE_EXHAUSTED). */
unsigned char* tfe_sm_text_to_binary(const char* text, size_t len,
                                     const char* path, size_t* out_len,
                                     TF_Status* s);

/* The same malformed-input check and errors for another file read as a
 * binary proto (the SavedModel's debug info): its top level only. */
int tfe_sm_check_message(const unsigned char* data, size_t len,
                         const char* path, TF_Status* s);

/* TF's checks of a GraphDef before a SavedModel session is made from it
 * (FAILED_PRECONDITION): a node (of the graph or of a library function)
 * whose "value" attr holds a tensor of unknown size, a Const without
 * "value", a function that calls itself. Malformed bytes are left to the
 * importer. Returns 1 when they pass. */
int tfe_sm_validate_graph_def(const unsigned char* data, size_t len,
                              TF_Status* s);

#endif /* TFE_GRAPH_SAVED_MODEL_INTERNAL_H_ */
