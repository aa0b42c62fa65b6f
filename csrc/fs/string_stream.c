/* TF_StringStream and a small string vector used to build one. */
#include "fs/string_stream.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

void tfe_free_string_array(char** items, size_t count) {
  size_t i;
  if (items == NULL) return;
  for (i = 0; i < count; i++) tfe_free(items[i]);
  tfe_free(items);
}

TF_StringStream* tfe_string_stream_take(char** items, size_t count) {
  TF_StringStream* s = (TF_StringStream*)tfe_calloc(1, sizeof(*s));
  if (s == NULL) {
    tfe_free_string_array(items, count);
    return NULL;
  }
  s->items = items;
  s->count = items ? count : 0;
  s->next = 0;
  return s;
}

bool TF_StringStreamNext(TF_StringStream* list, const char** result) {
  if (list == NULL || list->next >= list->count) {
    if (result != NULL) *result = NULL;
    return false;
  }
  if (result != NULL) *result = list->items[list->next];
  list->next++;
  return true;
}

void TF_StringStreamDone(TF_StringStream* list) {
  if (list == NULL) return;
  tfe_free_string_array(list->items, list->count);
  tfe_free(list);
}

int tfe_strvec_take(tfe_strvec* v, char* s) {
  if (s == NULL) return -1;
  if (v->count == v->cap) {
    size_t cap = v->cap ? v->cap * 2 : 16;
    size_t bytes;
    char** items;
    if (!tfe_mul_size(cap, sizeof(char*), &bytes)) {
      tfe_free(s);
      return -1;
    }
    items = (char**)tfe_realloc(v->items, bytes);
    if (items == NULL) {
      tfe_free(s);
      return -1;
    }
    v->items = items;
    v->cap = cap;
  }
  v->items[v->count++] = s;
  return 0;
}

int tfe_strvec_push(tfe_strvec* v, const char* s) {
  return tfe_strvec_take(v, tfe_strdup(s));
}

void tfe_strvec_free(tfe_strvec* v) {
  tfe_free_string_array(v->items, v->count);
  v->items = NULL;
  v->count = v->cap = 0;
}

static int cmp_str(const void* a, const void* b) {
  return strcmp(*(char* const*)a, *(char* const*)b);
}

void tfe_strvec_sort_unique(tfe_strvec* v) {
  size_t i, o = 0;
  if (v->count < 2) return;
  qsort(v->items, v->count, sizeof(char*), cmp_str);
  for (i = 0; i < v->count; i++) {
    if (o > 0 && strcmp(v->items[o - 1], v->items[i]) == 0) {
      tfe_free(v->items[i]);
      continue;
    }
    v->items[o++] = v->items[i];
  }
  v->count = o;
}
