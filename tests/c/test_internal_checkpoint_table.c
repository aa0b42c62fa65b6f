/* White-box tests of the checkpoint reader's building blocks: CRC-32C and
 * its masking, the snappy decompressor, and the sorted-table reader on
 * hand-made inputs. */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "graph/checkpoint_table.h"
#include "tensorflow/c/tf_status.h"
#include "tfe_test.h"

TEST(crc32c_known_values) {
  const char* s = "123456789";
  unsigned char zeros[32];
  uint32_t c;
  memset(zeros, 0, sizeof zeros);
  CHECK_EQ_INT(tfe_crc32c(s, 9), 0xe3069283u);
  CHECK_EQ_INT(tfe_crc32c(zeros, 32), 0x8a9136aau);
  CHECK_EQ_INT(tfe_crc32c(s, 0), 0);
  /* Extending in pieces (across the eight-byte steps) gives the same. */
  c = tfe_crc32c_extend(tfe_crc32c(s, 3), s + 3, 6);
  CHECK_EQ_INT(c, 0xe3069283u);
  CHECK(tfe_crc32c_mask(c) != c);
  CHECK_EQ_INT(tfe_crc32c_unmask(tfe_crc32c_mask(c)), c);
  CHECK_EQ_INT(tfe_crc32c_unmask(tfe_crc32c_mask(0)), 0);
}

static int unsnap(const unsigned char* in, size_t n, unsigned char** out,
                  size_t* len) {
  return tfe_snappy_uncompress(in, n, 1 << 20, out, len);
}

TEST(snappy_literals_and_copies) {
  /* 10 bytes: literal "ab", copy len 4 at offset 2 (overlapping), then a
   * 2-byte-offset copy of length 4 at offset 6. */
  static const unsigned char in[] = {10, 1 << 2, 'a', 'b', 1, 2,
                                     (3 << 2) | 2, 6, 0};
  unsigned char* out;
  size_t len;
  CHECK_EQ_INT(unsnap(in, sizeof in, &out, &len), 0);
  CHECK_EQ_SIZE(len, 10);
  CHECK(memcmp(out, "abababab" "ab", 10) == 0);
  tfe_free(out);
  {
    static const unsigned char empty[] = {0};
    CHECK_EQ_INT(unsnap(empty, 1, &out, &len), 0);
    CHECK_EQ_SIZE(len, 0);
    tfe_free(out);
  }
}

TEST(snappy_rejects_malformed_input) {
  unsigned char* out = (unsigned char*)1;
  size_t len;
  static const unsigned char zero_offset[] = {5, 0, 'a', 1, 0};
  static const unsigned char far_offset[] = {5, 0, 'a', 1, 9};
  static const unsigned char short_output[] = {5, 0, 'a'};
  static const unsigned char long_output[] = {1, 1 << 2, 'a', 'b'};
  static const unsigned char cut_literal[] = {3, 2 << 2, 'a'};
  static const unsigned char bad_length[] = {0xff, 0xff, 0xff, 0xff, 0xff};
  static const unsigned char too_big[] = {0x80, 0x80, 0x80, 0x01};
  CHECK_EQ_INT(unsnap(zero_offset, sizeof zero_offset, &out, &len), -1);
  CHECK(out == NULL);
  CHECK_EQ_INT(unsnap(far_offset, sizeof far_offset, &out, &len), -1);
  CHECK_EQ_INT(unsnap(short_output, sizeof short_output, &out, &len), -1);
  CHECK_EQ_INT(unsnap(long_output, sizeof long_output, &out, &len), -1);
  CHECK_EQ_INT(unsnap(cut_literal, sizeof cut_literal, &out, &len), -1);
  CHECK_EQ_INT(unsnap(bad_length, sizeof bad_length, &out, &len), -1);
  CHECK_EQ_INT(unsnap(too_big, sizeof too_big, &out, &len), -1);
  CHECK_EQ_INT(unsnap(too_big, 0, &out, &len), -1);
}

static void put32(unsigned char* p, uint32_t v) {
  p[0] = (unsigned char)v;
  p[1] = (unsigned char)(v >> 8);
  p[2] = (unsigned char)(v >> 16);
  p[3] = (unsigned char)(v >> 24);
}

/* Appends a block (contents + type byte + masked crc) to buf at *n. */
static void add_block(unsigned char* buf, size_t* n, const unsigned char* b,
                      size_t len, unsigned char type) {
  memcpy(buf + *n, b, len);
  buf[*n + len] = type;
  put32(buf + *n + len + 1, tfe_crc32c_mask(tfe_crc32c(buf + *n, len + 1)));
  *n += len + 5;
}

/* A table with one data block {"": "H", "k1": "v1", "k2": "v2"} (the last
 * key sharing one byte), an empty metaindex and an index block. */
static size_t make_table(unsigned char* buf, int swap_keys) {
  unsigned char data[64], idx[32], meta[8];
  size_t n = 0, d = 0, i = 0, data_off, data_len, meta_off, idx_off;
  unsigned char* f;
  /* entries: shared, unshared, value length, key bytes, value bytes */
  const unsigned char e0[] = {0, 0, 1, 'H'};
  const unsigned char e1[] = {0, 2, 2, 'k', '1', 'v', '1'};
  unsigned char e2[] = {1, 1, 2, '2', 'v', '2'};
  if (swap_keys) e2[3] = '0'; /* "k0" after "k1": out of order */
  memcpy(data + d, e0, sizeof e0);
  d += sizeof e0;
  memcpy(data + d, e1, sizeof e1);
  d += sizeof e1;
  memcpy(data + d, e2, sizeof e2);
  d += sizeof e2;
  put32(data + d, 0); /* one restart point at 0 */
  put32(data + d + 4, 1);
  d += 8;
  data_off = n;
  data_len = d;
  add_block(buf, &n, data, d, 0);
  put32(meta, 0);
  put32(meta + 4, 1);
  meta_off = n;
  add_block(buf, &n, meta, 8, 0);
  idx[i++] = 0;
  idx[i++] = 2;
  idx[i++] = 2;
  idx[i++] = 'k';
  idx[i++] = '2';
  idx[i++] = (unsigned char)data_off;
  idx[i++] = (unsigned char)data_len;
  put32(idx + i, 0);
  put32(idx + i + 4, 1);
  i += 8;
  idx_off = n;
  add_block(buf, &n, idx, i, 0);
  f = buf + n;
  memset(f, 0, 48);
  f[0] = (unsigned char)meta_off;
  f[1] = 8;
  f[2] = (unsigned char)idx_off;
  f[3] = (unsigned char)i;
  put32(f + 40, 0x8b80fb57u);
  put32(f + 44, 0xdb477524u);
  return n + 48;
}

TEST(table_reads_hand_made_file) {
  unsigned char buf[256];
  size_t n = make_table(buf, 0), count;
  tfe_table_entry* e;
  long failed;
  TF_Status* s = TF_NewStatus();
  CHECK_EQ_INT(tfe_table_read_all(buf, n, &e, &count, &failed, s), 0);
  CHECK_EQ_SIZE(count, 3);
  CHECK_EQ_SIZE(e[0].key_len, 0);
  CHECK(e[0].value_len == 1 && e[0].value[0] == 'H');
  CHECK_STR_EQ(e[1].key, "k1");
  CHECK_STR_EQ(e[2].key, "k2");
  CHECK(e[2].value_len == 2 && memcmp(e[2].value, "v2", 2) == 0);
  tfe_table_entries_free(e, count);

  n = make_table(buf, 1);
  CHECK_EQ_INT(tfe_table_read_all(buf, n, &e, &count, &failed, s), -1);
  CHECK_CODE(s, TF_DATA_LOSS);
  CHECK(e == NULL && count == 0);

  n = make_table(buf, 0);
  buf[n - 48 + 3] = 200; /* index handle size beyond the file */
  CHECK_EQ_INT(tfe_table_read_all(buf, n, &e, &count, &failed, s), -1);
  CHECK_CODE(s, TF_DATA_LOSS);
  CHECK_STR_EQ(TF_Message(s), "truncated block read");
  CHECK_EQ_INT(failed, -1);

  n = make_table(buf, 0);
  buf[3] ^= 0x40; /* damages the data block: its checksum no longer fits */
  CHECK_EQ_INT(tfe_table_read_all(buf, n, &e, &count, &failed, s), -1);
  CHECK_STR_EQ(TF_Message(s), "block checksum mismatch");
  CHECK_EQ_INT(failed, 0);
  tfe_table_entries_free(NULL, 0);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
