/* Built-in op definitions: lookup tables (HashTableV2 and friends).
 * Names, args, attrs, defaults and the stateful flag follow TensorFlow
 * 2.21's op registry (checked against the OpDefs TF 2.21 reports). The
 * TF 1 forms hand out a Ref(string) handle holding [container, name] and,
 * as in TF, only their table makers are stateful. The kernels are in
 * csrc/kernels/cpu/lookup_kernels.c. Not defined: TF 1's
 * MutableDenseHashTable (TF 2.21's kernel for it fails: it reads an input
 * the op does not have) and InitializeTableFromDataset (no datasets in
 * tfe). */
#include "ops/ops_internal.h"

int tfe_ops_register_lookup_defs(void);

/* The attrs every named table maker has. */
#define LK_NAMED_ATTRS                                             \
  "attr: container: string = ''", "attr: shared_name: string = ''", \
      "attr: use_node_name_sharing: bool = false"

static const tfe_builtin_op kOps[] = {
    /* Table makers. */
    TFE_OP("HashTableV2", "out: table_handle: resource", LK_NAMED_ATTRS,
           "attr: key_dtype: type", "attr: value_dtype: type", "stateful"),
    TFE_OP("MutableHashTableV2", "out: table_handle: resource",
           LK_NAMED_ATTRS, "attr: key_dtype: type", "attr: value_dtype: type",
           "stateful"),
    TFE_OP("MutableHashTableOfTensorsV2", "out: table_handle: resource",
           LK_NAMED_ATTRS, "attr: key_dtype: type", "attr: value_dtype: type",
           "attr: value_shape: shape = {}", "stateful"),
    TFE_OP("AnonymousHashTable", "out: table_handle: resource",
           "attr: key_dtype: type", "attr: value_dtype: type", "stateful"),
    TFE_OP("AnonymousMutableHashTable", "out: table_handle: resource",
           "attr: key_dtype: type", "attr: value_dtype: type", "stateful"),
    TFE_OP("AnonymousMutableHashTableOfTensors",
           "out: table_handle: resource", "attr: key_dtype: type",
           "attr: value_dtype: type", "attr: value_shape: shape = {}",
           "stateful"),
    TFE_OP("HashTable", "out: table_handle: Ref(string)", LK_NAMED_ATTRS,
           "attr: key_dtype: type", "attr: value_dtype: type", "stateful"),
    TFE_OP("MutableHashTable", "out: table_handle: Ref(string)",
           LK_NAMED_ATTRS, "attr: key_dtype: type", "attr: value_dtype: type",
           "stateful"),
    TFE_OP("MutableHashTableOfTensors", "out: table_handle: Ref(string)",
           LK_NAMED_ATTRS, "attr: key_dtype: type", "attr: value_dtype: type",
           "attr: value_shape: shape = {}", "stateful"),
    TFE_OP("MutableDenseHashTableV2", "in: empty_key: key_dtype",
           "in: deleted_key: key_dtype", "out: table_handle: resource",
           LK_NAMED_ATTRS, "attr: key_dtype: type", "attr: value_dtype: type",
           "attr: value_shape: shape = {}",
           "attr: initial_num_buckets: int = 131072",
           "attr: max_load_factor: float = 0.8", "stateful"),
    TFE_OP("AnonymousMutableDenseHashTable", "in: empty_key: key_dtype",
           "in: deleted_key: key_dtype", "out: table_handle: resource",
           "attr: key_dtype: type", "attr: value_dtype: type",
           "attr: value_shape: shape = {}",
           "attr: initial_num_buckets: int = 131072",
           "attr: max_load_factor: float = 0.8", "stateful"),
    /* Initializers. */
    TFE_OP("InitializeTableV2", "in: table_handle: resource", "in: keys: Tkey",
           "in: values: Tval", "attr: Tkey: type", "attr: Tval: type",
           "stateful"),
    TFE_OP("InitializeTable", "in: table_handle: Ref(string)",
           "in: keys: Tkey", "in: values: Tval", "attr: Tkey: type",
           "attr: Tval: type"),
    TFE_OP("InitializeTableFromTextFileV2", "in: table_handle: resource",
           "in: filename: string", "attr: key_index: int >= -2",
           "attr: value_index: int >= -2",
           "attr: vocab_size: int >= -1 = -1",
           "attr: delimiter: string = '\\t'", "attr: offset: int = 0",
           "stateful"),
    TFE_OP("InitializeTableFromTextFile", "in: table_handle: Ref(string)",
           "in: filename: string", "attr: key_index: int >= -2",
           "attr: value_index: int >= -2",
           "attr: vocab_size: int >= -1 = -1",
           "attr: delimiter: string = '\\t'", "attr: offset: int = 0"),
    /* Access. */
    TFE_OP("LookupTableFindV2", "in: table_handle: resource", "in: keys: Tin",
           "in: default_value: Tout", "out: values: Tout", "attr: Tin: type",
           "attr: Tout: type", "stateful"),
    TFE_OP("LookupTableFind", "in: table_handle: Ref(string)",
           "in: keys: Tin", "in: default_value: Tout", "out: values: Tout",
           "attr: Tin: type", "attr: Tout: type"),
    TFE_OP("LookupTableInsertV2", "in: table_handle: resource",
           "in: keys: Tin", "in: values: Tout", "attr: Tin: type",
           "attr: Tout: type", "stateful"),
    TFE_OP("LookupTableInsert", "in: table_handle: Ref(string)",
           "in: keys: Tin", "in: values: Tout", "attr: Tin: type",
           "attr: Tout: type"),
    TFE_OP("LookupTableRemoveV2", "in: table_handle: resource",
           "in: keys: Tin", "attr: Tin: type", "stateful"),
    TFE_OP("LookupTableImportV2", "in: table_handle: resource",
           "in: keys: Tin", "in: values: Tout", "attr: Tin: type",
           "attr: Tout: type", "stateful"),
    TFE_OP("LookupTableImport", "in: table_handle: Ref(string)",
           "in: keys: Tin", "in: values: Tout", "attr: Tin: type",
           "attr: Tout: type"),
    TFE_OP("LookupTableExportV2", "in: table_handle: resource",
           "out: keys: Tkeys", "out: values: Tvalues", "attr: Tkeys: type",
           "attr: Tvalues: type", "stateful"),
    TFE_OP("LookupTableExport", "in: table_handle: Ref(string)",
           "out: keys: Tkeys", "out: values: Tvalues", "attr: Tkeys: type",
           "attr: Tvalues: type"),
    TFE_OP("LookupTableSizeV2", "in: table_handle: resource",
           "out: size: int64", "stateful"),
    TFE_OP("LookupTableSize", "in: table_handle: Ref(string)",
           "out: size: int64"),
};

int tfe_ops_register_lookup_defs(void) {
  return tfe_ops_register_table(kOps, (int)(sizeof kOps / sizeof kOps[0]));
}
