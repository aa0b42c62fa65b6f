/* The pieces of TensorFlow's V2 checkpoint format below the tensor bundle:
 * CRC-32C (Castagnoli) with TensorFlow's masking, a snappy decompressor for
 * compressed table blocks, and a reader for the immutable sorted table
 * ("SSTable", LevelDB layout) that holds a bundle's `.index`.
 *
 * Table layout, as this reader understands it: data blocks, a metaindex
 * block, an index block, then a 48-byte footer (two block handles as
 * varint64 pairs, zero padding, and a little-endian 64-bit magic number).
 * Every block is followed by a one-byte compression type (0 none, 1 snappy)
 * and the masked CRC-32C of block bytes plus that type byte. A block holds
 * prefix-compressed entries (varint shared / unshared / value lengths, the
 * unshared key bytes, the value), then the restart offsets (fixed32 each)
 * and their count (fixed32). The index block maps each data block's last
 * key to that block's handle. */
#ifndef TFE_GRAPH_CHECKPOINT_TABLE_H_
#define TFE_GRAPH_CHECKPOINT_TABLE_H_

#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/tf_status.h"

/* CRC-32C of data[0, n) continuing from `crc` (0 to start). */
uint32_t tfe_crc32c_extend(uint32_t crc, const void* data, size_t n);
static inline uint32_t tfe_crc32c(const void* data, size_t n) {
  return tfe_crc32c_extend(0, data, n);
}
/* TensorFlow stores checksums masked (rotated and offset) so that a CRC of
 * data that itself contains CRCs stays well distributed. */
uint32_t tfe_crc32c_mask(uint32_t crc);
uint32_t tfe_crc32c_unmask(uint32_t masked);

/* Decompresses a snappy buffer into a new tfe_malloc'd buffer (*out, *out_len;
 * at least one byte is allocated). Returns 0 on success, -1 when the input
 * is malformed or larger than `max_len`, -2 when memory runs out. */
int tfe_snappy_uncompress(const unsigned char* in, size_t n, size_t max_len,
                          unsigned char** out, size_t* out_len);

/* One key/value pair of a table, copied out of the file. */
typedef struct tfe_table_entry {
  char* key;            /* tfe_malloc'd, NUL-terminated */
  size_t key_len;       /* may contain NUL bytes before key_len */
  unsigned char* value; /* tfe_malloc'd (non-NULL even when empty) */
  size_t value_len;
} tfe_table_entry;

/* Reads every entry of the table in file[0, len), in file order, into a
 * new array (*out, *count; free with tfe_table_entries_free). On failure
 * sets `status` (TF_DATA_LOSS for a malformed table with TensorFlow's
 * wording, TF_RESOURCE_EXHAUSTED when memory runs out) and returns -1;
 * *failed_block is then -1 when the footer or the index block could not be
 * read, else the number of data blocks read in full before the failure
 * (0: TensorFlow would notice it while opening, at the header entry). */
int tfe_table_read_all(const unsigned char* file, size_t len,
                       tfe_table_entry** out, size_t* count,
                       long* failed_block, TF_Status* status);
void tfe_table_entries_free(tfe_table_entry* entries, size_t count);


/* ---- writing (used by csrc/graph/checkpoint_writer.c) ---- */

/* Builds a whole table in memory the way TensorFlow's TableBuilder does
 * with the options its checkpoint writers use: no compression, 256 KiB
 * data blocks (a block is cut once its size estimate reaches that, or
 * before an entry of at least 512 KiB), restart points every 16 entries
 * in data blocks and at every entry of the index block, index keys
 * shortened to a separator between neighbouring blocks (and the last one
 * to a short successor), an empty metaindex block and the 48-byte footer.
 * `entries` must be sorted by key (byte-wise, a prefix first) with no
 * duplicates. On success *out (tfe_malloc'd, at least one byte) and
 * *out_len hold the file's bytes and 0 is returned; -1 when memory runs
 * out or the keys are not strictly increasing. */
int tfe_table_build(const tfe_table_entry* entries, size_t count,
                    unsigned char** out, size_t* out_len);

/* Byte-wise comparison of two keys, as the table orders them. */
int tfe_table_key_cmp(const char* a, size_t a_len, const char* b,
                      size_t b_len);

#endif /* TFE_GRAPH_CHECKPOINT_TABLE_H_ */
