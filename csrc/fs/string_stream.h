/* TF_StringStream: an owned list of strings read one at a time. */
#ifndef TFE_FS_STRING_STREAM_H_
#define TFE_FS_STRING_STREAM_H_

#include <stddef.h>

#include "tensorflow/c/env.h"

struct TF_StringStream {
  char** items; /* tfe_malloc'd array of tfe_malloc'd strings */
  size_t count;
  size_t next;
};

/* Wraps `items` (count strings); the stream takes ownership of the array
 * and the strings, also on failure. NULL items with count 0 is an empty
 * stream. Returns NULL when memory runs out. */
TF_StringStream* tfe_string_stream_take(char** items, size_t count);

/* Frees an array of `count` tfe_malloc'd strings. NULL is a no-op. */
void tfe_free_string_array(char** items, size_t count);

/* A growable array of tfe_malloc'd strings. */
typedef struct tfe_strvec {
  char** items;
  size_t count;
  size_t cap;
} tfe_strvec;

/* Appends a copy of s (or takes s itself with _take). 0 on success, -1
 * when memory runs out (_take frees s then). */
int tfe_strvec_push(tfe_strvec* v, const char* s);
int tfe_strvec_take(tfe_strvec* v, char* s);
void tfe_strvec_free(tfe_strvec* v);
/* Sorts byte-wise and removes duplicates. */
void tfe_strvec_sort_unique(tfe_strvec* v);

#endif /* TFE_FS_STRING_STREAM_H_ */
