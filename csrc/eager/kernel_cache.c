/* The per-context kernel cache: (op definition, device, attrs as set) ->
 * everything TFE_Execute needs to run the kernel again without looking
 * anything up. A chained hash table under a spinlock; lookups allocate
 * nothing. */
#include <string.h>

#include "core/alloc.h"
#include "eager/eager_internal.h"

#define INITIAL_BUCKETS 64

void tfe_kcache_init(tfe_kcache* c) {
  atomic_flag_clear(&c->lock.f);
  c->buckets = NULL;
  c->nbuckets = 0;
  c->count = 0;
  c->retired = NULL;
  atomic_init(&c->gen, 1);
}

void tfe_kcache_entry_free(tfe_kcache_entry* e) {
  if (e == NULL) return;
  if (e->state != NULL && e->reg != NULL && e->reg->destroy != NULL) {
    e->reg->destroy(e->state, e->reg->user_data);
  }
  tfe_attrs_destroy(&e->key);
  tfe_attrs_destroy(&e->complete);
  tfe_free(e->input_types);
  tfe_free(e);
}

static void free_chain(tfe_kcache_entry* e) {
  while (e != NULL) {
    tfe_kcache_entry* next = e->next;
    tfe_kcache_entry_free(e);
    e = next;
  }
}

void tfe_kcache_destroy(tfe_kcache* c) {
  size_t i;
  for (i = 0; i < c->nbuckets; i++) free_chain(c->buckets[i]);
  free_chain(c->retired);
  tfe_free(c->buckets);
  c->buckets = NULL;
  c->nbuckets = 0;
  c->count = 0;
  c->retired = NULL;
}

void tfe_kcache_clear(tfe_kcache* c) {
  size_t i;
  tfe_spin_lock(&c->lock);
  for (i = 0; i < c->nbuckets; i++) {
    tfe_kcache_entry* e = c->buckets[i];
    while (e != NULL) {
      tfe_kcache_entry* next = e->next;
      e->next = c->retired;
      c->retired = e;
      e = next;
    }
    c->buckets[i] = NULL;
  }
  c->count = 0;
  atomic_fetch_add(&c->gen, 1);
  tfe_spin_unlock(&c->lock);
}

static uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  return h;
}

uint64_t tfe_kcache_key_hash(const tfe_op_def* def, const tfe_device* device,
                             uint64_t attrs_hash) {
  uint64_t h = mix(0x84222325cbf29ce4ull, (uint64_t)(uintptr_t)def);
  h = mix(h, (uint64_t)(uintptr_t)device);
  h = mix(h, attrs_hash);
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return h;
}

static tfe_kcache_entry* find_locked(tfe_kcache* c, const tfe_op_def* def,
                                     const tfe_device* device,
                                     const tfe_attrs* attrs, uint64_t hash) {
  tfe_kcache_entry* e;
  if (c->nbuckets == 0) return NULL;
  for (e = c->buckets[hash & (c->nbuckets - 1)]; e != NULL; e = e->next) {
    if (e->hash == hash && e->def == def && e->device == device &&
        e->key.count == attrs->count && tfe_attrs_equal(&e->key, attrs)) {
      return e;
    }
  }
  return NULL;
}

tfe_kcache_entry* tfe_kcache_find(tfe_kcache* c, const tfe_op_def* def,
                                  const tfe_device* device,
                                  const tfe_attrs* attrs, uint64_t hash) {
  tfe_kcache_entry* e;
  tfe_spin_lock(&c->lock);
  e = find_locked(c, def, device, attrs, hash);
  tfe_spin_unlock(&c->lock);
  return e;
}

/* Doubles the table (under the lock). 0 on OOM, table unchanged. */
static int grow_locked(tfe_kcache* c) {
  size_t n = c->nbuckets == 0 ? INITIAL_BUCKETS : c->nbuckets * 2, i;
  tfe_kcache_entry** b =
      (tfe_kcache_entry**)tfe_calloc(n, sizeof(tfe_kcache_entry*));
  if (b == NULL) return 0;
  for (i = 0; i < c->nbuckets; i++) {
    tfe_kcache_entry* e = c->buckets[i];
    while (e != NULL) {
      tfe_kcache_entry* next = e->next;
      e->next = b[e->hash & (n - 1)];
      b[e->hash & (n - 1)] = e;
      e = next;
    }
  }
  tfe_free(c->buckets);
  c->buckets = b;
  c->nbuckets = n;
  return 1;
}

tfe_kcache_entry* tfe_kcache_insert(tfe_kcache* c, tfe_kcache_entry* e) {
  tfe_kcache_entry* existing;
  size_t slot;
  tfe_spin_lock(&c->lock);
  existing = find_locked(c, e->def, e->device, &e->key, e->hash);
  if (existing != NULL) {
    tfe_spin_unlock(&c->lock);
    tfe_kcache_entry_free(e);
    return existing;
  }
  if ((c->nbuckets == 0 || c->count >= c->nbuckets) && !grow_locked(c) &&
      c->nbuckets == 0) {
    tfe_spin_unlock(&c->lock);
    tfe_kcache_entry_free(e);
    return NULL;
  }
  slot = e->hash & (c->nbuckets - 1);
  e->next = c->buckets[slot];
  c->buckets[slot] = e;
  c->count++;
  tfe_spin_unlock(&c->lock);
  return e;
}
