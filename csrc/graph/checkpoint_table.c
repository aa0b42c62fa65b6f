/* CRC-32C, snappy decompression and the sorted-table reader used by the
 * checkpoint reader (see checkpoint_table.h for the formats). */
#include "graph/checkpoint_table.h"

#include <pthread.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"

/* ------------------------------------------------------------------------
 * CRC-32C, eight bytes per step with eight lookup tables built once. */

#define TFE_CRC32C_POLY 0x82F63B78u /* reflected Castagnoli polynomial */

static uint32_t g_crc_tab[8][256];
static pthread_once_t g_crc_once = PTHREAD_ONCE_INIT;

static void crc_tables_init(void) {
  uint32_t i, k;
  for (i = 0; i < 256; i++) {
    uint32_t c = i;
    for (k = 0; k < 8; k++) c = (c >> 1) ^ ((c & 1u) ? TFE_CRC32C_POLY : 0u);
    g_crc_tab[0][i] = c;
  }
  for (i = 0; i < 256; i++) {
    for (k = 1; k < 8; k++) {
      uint32_t prev = g_crc_tab[k - 1][i];
      g_crc_tab[k][i] = (prev >> 8) ^ g_crc_tab[0][prev & 0xffu];
    }
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
/* The SSE 4.2 crc32 instruction computes CRC-32C itself, eight bytes per
 * instruction (several times the table loop's speed on large tensors). */
#define TFE_CRC_HW 1
static int g_crc_hw;

__attribute__((target("sse4.2"))) static uint32_t crc32c_hw(
    uint32_t crc, const unsigned char* p, size_t n) {
  uint64_t c = (uint32_t)~crc;
  while (n > 0 && ((uintptr_t)p & 7u) != 0) {
    c = __builtin_ia32_crc32qi((uint32_t)c, *p++);
    n--;
  }
  while (n >= 8) {
    uint64_t v;
    memcpy(&v, p, 8);
    c = __builtin_ia32_crc32di(c, v);
    p += 8;
    n -= 8;
  }
  while (n-- > 0) c = __builtin_ia32_crc32qi((uint32_t)c, *p++);
  return ~(uint32_t)c;
}
#endif

static void crc_init(void) {
  crc_tables_init();
#ifdef TFE_CRC_HW
  __builtin_cpu_init();
  g_crc_hw = __builtin_cpu_supports("sse4.2") ? 1 : 0;
#endif
}

uint32_t tfe_crc32c_extend(uint32_t crc, const void* data, size_t n) {
  const unsigned char* p = (const unsigned char*)data;
  uint32_t c = ~crc;
  pthread_once(&g_crc_once, crc_init);
#ifdef TFE_CRC_HW
  if (g_crc_hw) return crc32c_hw(crc, p, n);
#endif
  while (n >= 8) {
    uint32_t lo = c ^ ((uint32_t)p[0] | ((uint32_t)p[1] << 8) |
                       ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24));
    c = g_crc_tab[7][lo & 0xffu] ^ g_crc_tab[6][(lo >> 8) & 0xffu] ^
        g_crc_tab[5][(lo >> 16) & 0xffu] ^ g_crc_tab[4][lo >> 24] ^
        g_crc_tab[3][p[4]] ^ g_crc_tab[2][p[5]] ^ g_crc_tab[1][p[6]] ^
        g_crc_tab[0][p[7]];
    p += 8;
    n -= 8;
  }
  while (n--) c = (c >> 8) ^ g_crc_tab[0][(c ^ *p++) & 0xffu];
  return ~c;
}

#define TFE_CRC_MASK_DELTA 0xa282ead8u

uint32_t tfe_crc32c_mask(uint32_t crc) {
  return ((crc >> 15) | (crc << 17)) + TFE_CRC_MASK_DELTA;
}

uint32_t tfe_crc32c_unmask(uint32_t masked) {
  uint32_t r = masked - TFE_CRC_MASK_DELTA;
  return (r >> 17) | (r << 15);
}

/* ------------------------------------------------------------------------
 * Little helpers over a byte range. */

static uint32_t le32(const unsigned char* p) {
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
         ((uint32_t)p[3] << 24);
}

/* A varint of at most `maxbytes` bytes from [*p, end); 0 when malformed. */
static int get_varint(const unsigned char** p, const unsigned char* end,
                      int maxbytes, uint64_t* out) {
  uint64_t v = 0;
  int i;
  for (i = 0; i < maxbytes && *p < end; i++) {
    unsigned char c = *(*p)++;
    v |= (uint64_t)(c & 0x7f) << (7 * i);
    if (!(c & 0x80)) {
      if (maxbytes == 5 && v > UINT32_MAX) return 0;
      *out = v;
      return 1;
    }
  }
  return 0;
}

/* ------------------------------------------------------------------------
 * Snappy: a varint32 uncompressed length, then elements whose tag byte's
 * low two bits say literal (0) or back-reference copy with a 1-, 2- or
 * 4-byte offset (1, 2, 3). */

int tfe_snappy_uncompress(const unsigned char* in, size_t n, size_t max_len,
                          unsigned char** out, size_t* out_len) {
  const unsigned char* ip = in;
  const unsigned char* end = in + n;
  uint64_t total;
  unsigned char* buf;
  size_t op = 0;
  *out = NULL;
  *out_len = 0;
  if (!get_varint(&ip, end, 5, &total) || total > max_len) return -1;
  buf = (unsigned char*)tfe_malloc(total ? (size_t)total : 1);
  if (buf == NULL) return -2;
  while (ip < end) {
    unsigned char tag = *ip++;
    size_t len, off = 0;
    if ((tag & 3) == 0) {
      len = tag >> 2;
      if (len >= 60) {
        size_t nb = len - 59, i;
        if ((size_t)(end - ip) < nb) goto bad;
        len = 0;
        for (i = 0; i < nb; i++) len |= (size_t)ip[i] << (8 * i);
        ip += nb;
      }
      len += 1;
      if ((size_t)(end - ip) < len || total - op < len) goto bad;
      memcpy(buf + op, ip, len);
      ip += len;
      op += len;
      continue;
    }
    if ((tag & 3) == 1) {
      if (end - ip < 1) goto bad;
      len = ((tag >> 2) & 7u) + 4;
      off = ((size_t)(tag >> 5) << 8) | ip[0];
      ip += 1;
    } else if ((tag & 3) == 2) {
      if (end - ip < 2) goto bad;
      len = (size_t)(tag >> 2) + 1;
      off = (size_t)ip[0] | ((size_t)ip[1] << 8);
      ip += 2;
    } else {
      if (end - ip < 4) goto bad;
      len = (size_t)(tag >> 2) + 1;
      off = le32(ip);
      ip += 4;
    }
    if (off == 0 || off > op || total - op < len) goto bad;
    { /* the source may overlap the destination: copy forwards bytewise */
      size_t i;
      for (i = 0; i < len; i++) buf[op + i] = buf[op - off + i];
    }
    op += len;
  }
  if (op != total) goto bad;
  *out = buf;
  *out_len = (size_t)total;
  return 0;
bad:
  tfe_free(buf);
  return -1;
}

/* ------------------------------------------------------------------------
 * Table reading. */

#define TFE_FOOTER_LEN 48
#define TFE_TABLE_MAGIC 0xdb4775248b80fb57ull
#define TFE_BLOCK_TRAILER 5
/* Largest block contents a snappy block may claim to expand to. */
#define TFE_MAX_BLOCK (1u << 30)

typedef struct {
  tfe_table_entry* items;
  size_t count, cap;
} entry_vec;

static int decode_handle(const unsigned char** p, const unsigned char* end,
                         uint64_t* off, uint64_t* size) {
  return get_varint(p, end, 10, off) && get_varint(p, end, 10, size);
}

/* Reads the block at (off, size), checking its trailer. *contents points
 * into the file or, for a snappy block, at *owned (which the caller frees). */
static int read_block(const unsigned char* file, size_t len, uint64_t off,
                      uint64_t size, const unsigned char** contents,
                      size_t* contents_len, unsigned char** owned,
                      TF_Status* status) {
  const unsigned char* b;
  uint32_t stored;
  *owned = NULL;
  if (size > (uint64_t)len || off > (uint64_t)len - size ||
      (uint64_t)len - size - off < TFE_BLOCK_TRAILER) {
    tfe_status_setf(status, TF_DATA_LOSS, "truncated block read");
    return 0;
  }
  b = file + off;
  stored = le32(b + size + 1);
  if (tfe_crc32c_unmask(stored) != tfe_crc32c(b, (size_t)size + 1)) {
    tfe_status_setf(status, TF_DATA_LOSS, "block checksum mismatch");
    return 0;
  }
  if (b[size] == 0) {
    *contents = b;
    *contents_len = (size_t)size;
    return 1;
  }
  if (b[size] == 1) {
    int rc = tfe_snappy_uncompress(b, (size_t)size, TFE_MAX_BLOCK, owned,
                                   contents_len);
    if (rc == -2) {
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                      "out of memory decompressing a checkpoint index block");
      return 0;
    }
    if (rc != 0) {
      tfe_status_setf(status, TF_DATA_LOSS,
                      "corrupted compressed block contents");
      return 0;
    }
    *contents = *owned;
    return 1;
  }
  tfe_status_setf(status, TF_DATA_LOSS, "bad block type");
  return 0;
}

/* Calls `fn` for every entry of a block's contents. */
typedef int (*entry_fn)(void* arg, const unsigned char* key, size_t key_len,
                        const unsigned char* value, size_t value_len,
                        TF_Status* status);

static int walk_block(const unsigned char* b, size_t n, entry_fn fn,
                      void* arg, TF_Status* status) {
  uint32_t restarts;
  size_t limit;
  const unsigned char* p = b;
  unsigned char* key = NULL;
  size_t key_len = 0, key_cap = 0;
  int ok = 1;
  if (n < 4) {
    tfe_status_setf(status, TF_DATA_LOSS, "bad block contents");
    return 0;
  }
  restarts = le32(b + n - 4);
  if (restarts > (n - 4) / 4) {
    tfe_status_setf(status, TF_DATA_LOSS, "bad block contents");
    return 0;
  }
  limit = n - 4 - (size_t)restarts * 4;
  while (ok && p < b + limit) {
    uint64_t shared, unshared, vlen;
    const unsigned char* end = b + limit;
    if (!get_varint(&p, end, 5, &shared) || !get_varint(&p, end, 5, &unshared) ||
        !get_varint(&p, end, 5, &vlen) || shared > key_len ||
        unshared > (uint64_t)(end - p) || vlen > (uint64_t)(end - p) - unshared) {
      tfe_status_setf(status, TF_DATA_LOSS, "bad entry in block");
      ok = 0;
      break;
    }
    if (shared + unshared + 1 > key_cap) {
      size_t cap = (size_t)(shared + unshared + 1) * 2;
      unsigned char* k = (unsigned char*)tfe_realloc(key, cap);
      if (k == NULL) {
        tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                        "out of memory reading a checkpoint index");
        ok = 0;
        break;
      }
      key = k;
      key_cap = cap;
    }
    memcpy(key + shared, p, (size_t)unshared);
    key_len = (size_t)(shared + unshared);
    p += unshared;
    ok = fn(arg, key, key_len, p, (size_t)vlen, status);
    p += vlen;
  }
  tfe_free(key);
  return ok;
}

static int add_entry(void* arg, const unsigned char* key, size_t key_len,
                     const unsigned char* value, size_t value_len,
                     TF_Status* status) {
  entry_vec* v = (entry_vec*)arg;
  tfe_table_entry* e;
  if (v->count > 0) {
    const tfe_table_entry* last = &v->items[v->count - 1];
    size_t m = last->key_len < key_len ? last->key_len : key_len;
    int c = memcmp(last->key, key, m);
    if (c > 0 || (c == 0 && last->key_len >= key_len)) {
      tfe_status_setf(status, TF_DATA_LOSS,
                      "checkpoint index keys are not in increasing order");
      return 0;
    }
  }
  if (v->count == v->cap) {
    size_t cap = v->cap ? v->cap * 2 : 64;
    tfe_table_entry* items =
        (tfe_table_entry*)tfe_realloc(v->items, cap * sizeof(*items));
    if (items == NULL) goto oom;
    v->items = items;
    v->cap = cap;
  }
  e = &v->items[v->count];
  e->key = (char*)tfe_malloc(key_len + 1);
  e->value = (unsigned char*)tfe_malloc(value_len ? value_len : 1);
  if (e->key == NULL || e->value == NULL) {
    tfe_free(e->key);
    tfe_free(e->value);
    goto oom;
  }
  if (key_len) memcpy(e->key, key, key_len);
  e->key[key_len] = '\0';
  e->key_len = key_len;
  if (value_len) memcpy(e->value, value, value_len);
  e->value_len = value_len;
  v->count++;
  return 1;
oom:
  tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                  "out of memory reading a checkpoint index");
  return 0;
}

typedef struct {
  const unsigned char* file;
  size_t len;
  entry_vec* entries;
  long block_no;
} index_walk;

/* Index-block entry: the value is the handle of one data block. */
static int visit_data_block(void* arg, const unsigned char* key,
                            size_t key_len, const unsigned char* value,
                            size_t value_len, TF_Status* status) {
  index_walk* w = (index_walk*)arg;
  const unsigned char* p = value;
  uint64_t off, size;
  const unsigned char* contents;
  size_t n;
  unsigned char* owned;
  int ok;
  (void)key;
  (void)key_len;
  if (!decode_handle(&p, value + value_len, &off, &size)) {
    tfe_status_setf(status, TF_DATA_LOSS, "bad block handle");
    return 0;
  }
  if (!read_block(w->file, w->len, off, size, &contents, &n, &owned, status))
    return 0;
  ok = walk_block(contents, n, add_entry, w->entries, status);
  tfe_free(owned);
  if (ok) w->block_no++;
  return ok;
}

int tfe_table_read_all(const unsigned char* file, size_t len,
                       tfe_table_entry** out, size_t* count,
                       long* failed_block, TF_Status* status) {
  const unsigned char* footer;
  const unsigned char* p;
  uint64_t magic, meta_off, meta_size, idx_off, idx_size;
  const unsigned char* contents;
  size_t n;
  unsigned char* owned = NULL;
  entry_vec v = {NULL, 0, 0};
  index_walk w;
  int ok;
  *out = NULL;
  *count = 0;
  *failed_block = -1;
  if (len < TFE_FOOTER_LEN) {
    tfe_status_setf(status, TF_DATA_LOSS, "file is too short to be an sstable");
    return -1;
  }
  footer = file + len - TFE_FOOTER_LEN;
  magic = (uint64_t)le32(footer + 40) | ((uint64_t)le32(footer + 44) << 32);
  if (magic != TFE_TABLE_MAGIC) {
    tfe_status_setf(status, TF_DATA_LOSS, "not an sstable (bad magic number)");
    return -1;
  }
  p = footer;
  if (!decode_handle(&p, footer + 40, &meta_off, &meta_size) ||
      !decode_handle(&p, footer + 40, &idx_off, &idx_size)) {
    tfe_status_setf(status, TF_DATA_LOSS, "bad block handle");
    return -1;
  }
  if (!read_block(file, len, idx_off, idx_size, &contents, &n, &owned, status))
    return -1;
  w.file = file;
  w.len = len;
  w.entries = &v;
  w.block_no = 0;
  ok = walk_block(contents, n, visit_data_block, &w, status);
  tfe_free(owned);
  if (!ok) {
    *failed_block = w.block_no;
    tfe_table_entries_free(v.items, v.count);
    return -1;
  }
  *out = v.items;
  *count = v.count;
  return 0;
}

void tfe_table_entries_free(tfe_table_entry* entries, size_t count) {
  size_t i;
  if (entries == NULL) return;
  for (i = 0; i < count; i++) {
    tfe_free(entries[i].key);
    tfe_free(entries[i].value);
  }
  tfe_free(entries);
}

/* ------------------------------------------------------------------------
 * Table building (TensorFlow's TableBuilder/BlockBuilder layout). */

#define TFE_TABLE_BLOCK_SIZE 262144u
#define TFE_TABLE_RESTART_INTERVAL 16

typedef struct {
  unsigned char* data;
  size_t len, cap;
  int oom;
} tb_buf;

static void tb_put(tb_buf* b, const void* p, size_t n) {
  if (b->oom || n == 0) return;
  if (b->len + n > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    unsigned char* d;
    while (cap < b->len + n) cap *= 2;
    d = (unsigned char*)tfe_realloc(b->data, cap);
    if (d == NULL) {
      b->oom = 1;
      return;
    }
    b->data = d;
    b->cap = cap;
  }
  memcpy(b->data + b->len, p, n);
  b->len += n;
}

static void tb_varint(tb_buf* b, uint64_t v) {
  unsigned char t[10];
  size_t n = 0;
  do {
    t[n] = (unsigned char)(v & 0x7f);
    v >>= 7;
    if (v) t[n] |= 0x80;
    n++;
  } while (v);
  tb_put(b, t, n);
}

static void tb_fixed32(tb_buf* b, uint32_t v) {
  unsigned char t[4];
  t[0] = (unsigned char)v;
  t[1] = (unsigned char)(v >> 8);
  t[2] = (unsigned char)(v >> 16);
  t[3] = (unsigned char)(v >> 24);
  tb_put(b, t, 4);
}

/* One block under construction. */
typedef struct {
  tb_buf buf;
  uint32_t* restarts;
  size_t num_restarts, cap_restarts;
  int counter, interval;
  tb_buf last_key;
  int oom;
} tb_block;

static void block_reset(tb_block* b) {
  b->buf.len = 0;
  b->num_restarts = 0;
  b->counter = 0;
  b->last_key.len = 0;
  if (b->cap_restarts == 0) {
    b->restarts = (uint32_t*)tfe_malloc(16 * sizeof(uint32_t));
    if (b->restarts == NULL) {
      b->oom = 1;
      return;
    }
    b->cap_restarts = 16;
  }
  b->restarts[b->num_restarts++] = 0;
}

static void block_free(tb_block* b) {
  tfe_free(b->buf.data);
  tfe_free(b->restarts);
  tfe_free(b->last_key.data);
}

static size_t block_estimate(const tb_block* b) {
  return b->buf.len + b->num_restarts * 4 + 4;
}

static void block_add(tb_block* b, const char* key, size_t klen,
                      const unsigned char* value, size_t vlen) {
  size_t shared = 0;
  if (b->oom) return;
  if (b->counter < b->interval) {
    size_t m = b->last_key.len < klen ? b->last_key.len : klen;
    while (shared < m && b->last_key.data[shared] == (unsigned char)key[shared])
      shared++;
  } else {
    if (b->num_restarts == b->cap_restarts) {
      uint32_t* r = (uint32_t*)tfe_realloc(
          b->restarts, b->cap_restarts * 2 * sizeof(uint32_t));
      if (r == NULL) {
        b->oom = 1;
        return;
      }
      b->restarts = r;
      b->cap_restarts *= 2;
    }
    b->restarts[b->num_restarts++] = (uint32_t)b->buf.len;
    b->counter = 0;
  }
  tb_varint(&b->buf, shared);
  tb_varint(&b->buf, klen - shared);
  tb_varint(&b->buf, vlen);
  tb_put(&b->buf, key + shared, klen - shared);
  tb_put(&b->buf, value, vlen);
  b->last_key.len = 0;
  tb_put(&b->last_key, key, klen);
  b->counter++;
  if (b->buf.oom || b->last_key.oom) b->oom = 1;
}

/* Appends the block's restarts, writes it with its trailer to `file`, puts
 * its handle (offset, size) in `handle` and resets it. */
static void block_write(tb_block* b, tb_buf* file, tb_buf* handle) {
  size_t i, start = file->len, size;
  unsigned char type = 0;
  uint32_t crc;
  for (i = 0; i < b->num_restarts; i++) tb_fixed32(&b->buf, b->restarts[i]);
  tb_fixed32(&b->buf, (uint32_t)b->num_restarts);
  if (b->buf.oom) b->oom = 1;
  size = b->buf.len;
  tb_put(file, b->buf.data, size);
  crc = tfe_crc32c_extend(tfe_crc32c(b->buf.data, size), &type, 1);
  tb_put(file, &type, 1);
  tb_fixed32(file, tfe_crc32c_mask(crc));
  handle->len = 0;
  tb_varint(handle, start);
  tb_varint(handle, size);
  block_reset(b);
}

int tfe_table_key_cmp(const char* a, size_t a_len, const char* b,
                      size_t b_len) {
  size_t m = a_len < b_len ? a_len : b_len;
  int c = m ? memcmp(a, b, m) : 0;
  if (c != 0) return c;
  return a_len < b_len ? -1 : (a_len > b_len ? 1 : 0);
}

/* Shortens `start` (in place) to a key in [start, limit). */
static void shortest_separator(tb_buf* start, const char* limit, size_t llen) {
  size_t m = start->len < llen ? start->len : llen, i = 0;
  while (i < m && start->data[i] == (unsigned char)limit[i]) i++;
  if (i >= m) return; /* one is a prefix of the other */
  if (start->data[i] < 0xff &&
      (unsigned)start->data[i] + 1 < (unsigned)(unsigned char)limit[i]) {
    start->data[i]++;
    start->len = i + 1;
  }
}

/* Shortens `key` to a short key >= it. */
static void short_successor(tb_buf* key) {
  size_t i;
  for (i = 0; i < key->len; i++) {
    if (key->data[i] != 0xff) {
      key->data[i]++;
      key->len = i + 1;
      return;
    }
  }
}

int tfe_table_build(const tfe_table_entry* entries, size_t count,
                    unsigned char** out, size_t* out_len) {
  tb_buf file = {NULL, 0, 0, 0}, handle = {NULL, 0, 0, 0};
  tb_buf last = {NULL, 0, 0, 0}, meta_handle = {NULL, 0, 0, 0};
  tb_block data, index, meta;
  int pending = 0, ok = 0;
  size_t i;
  *out = NULL;
  *out_len = 0;
  memset(&data, 0, sizeof data);
  memset(&index, 0, sizeof index);
  memset(&meta, 0, sizeof meta);
  data.interval = TFE_TABLE_RESTART_INTERVAL;
  meta.interval = TFE_TABLE_RESTART_INTERVAL;
  index.interval = 1;
  block_reset(&data);
  block_reset(&index);
  block_reset(&meta);
  for (i = 0; i < count; i++) {
    const tfe_table_entry* e = &entries[i];
    if (i > 0 && tfe_table_key_cmp(entries[i - 1].key, entries[i - 1].key_len,
                                   e->key, e->key_len) >= 0)
      goto done;
    /* An entry of at least two blocks' size starts a block of its own. */
    if (i > 0 && e->key_len + e->value_len >= 2 * (size_t)TFE_TABLE_BLOCK_SIZE &&
        data.buf.len > 0) {
      block_write(&data, &file, &handle);
      pending = 1;
    }
    if (pending) {
      shortest_separator(&last, e->key, e->key_len);
      block_add(&index, (const char*)last.data, last.len, handle.data,
                handle.len);
      pending = 0;
    }
    last.len = 0;
    tb_put(&last, e->key, e->key_len);
    block_add(&data, e->key, e->key_len, e->value, e->value_len);
    if (block_estimate(&data) >= TFE_TABLE_BLOCK_SIZE) {
      block_write(&data, &file, &handle);
      pending = 1;
    }
  }
  if (data.buf.len > 0) {
    block_write(&data, &file, &handle);
    pending = 1;
  }
  block_write(&meta, &file, &meta_handle);
  if (pending) {
    short_successor(&last);
    block_add(&index, (const char*)last.data, last.len, handle.data,
              handle.len);
  }
  block_write(&index, &file, &handle);
  {
    unsigned char footer[TFE_FOOTER_LEN];
    size_t n = meta_handle.len + handle.len;
    memset(footer, 0, sizeof footer);
    if (meta_handle.oom || handle.oom || n > 40) goto done;
    memcpy(footer, meta_handle.data, meta_handle.len);
    memcpy(footer + meta_handle.len, handle.data, handle.len);
    for (i = 0; i < 8; i++)
      footer[40 + i] = (unsigned char)(TFE_TABLE_MAGIC >> (8 * i));
    tb_put(&file, footer, sizeof footer);
  }
  if (file.oom || last.oom || data.oom || index.oom || meta.oom) goto done;
  *out = file.data;
  *out_len = file.len;
  file.data = NULL;
  ok = 1;
done:
  tfe_free(file.data);
  tfe_free(handle.data);
  tfe_free(meta_handle.data);
  tfe_free(last.data);
  block_free(&data);
  block_free(&index);
  block_free(&meta);
  return ok ? 0 : -1;
}
