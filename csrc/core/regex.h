/* Regular expressions with RE2's syntax and linear-time semantics.
 *
 * tfe's own engine: a pattern is parsed into a tree, compiled to a small
 * program and run by a Pike VM (a Thompson NFA simulation that carries
 * submatch positions per thread). Every search costs O(pattern size x text
 * length) time and O(pattern size) memory; nothing backtracks. Matching
 * follows RE2's leftmost-first (Perl-like) preference rules, on UTF-8 text
 * decoded to code points. docs/STRINGS.md lists the syntax covered.
 *
 * A compiled tfe_regex is immutable: any number of threads may match with
 * it at once. Scratch memory is per call (or per tfe_regex_scratch, which
 * one thread at a time may reuse across calls). */
#ifndef TFE_CORE_REGEX_H_
#define TFE_CORE_REGEX_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tfe_regex tfe_regex;
typedef struct tfe_regex_scratch tfe_regex_scratch;

/* Outcome of a compile. */
typedef enum {
  TFE_REGEX_OK = 0,
  /* A pattern RE2 rejects as well; the message is RE2's ("missing ): (a"). */
  TFE_REGEX_ERR_SYNTAX = 1,
  /* A pattern RE2 accepts that tfe does not handle (\C, an unknown Unicode
   * table); the message says so. */
  TFE_REGEX_ERR_UNSUPPORTED = 2,
  /* Out of memory. */
  TFE_REGEX_ERR_NOMEM = 3,
} tfe_regex_err;

/* Compiles pat[0..len). On success returns a program the caller owns
 * (tfe_regex_free) and sets *err_code to TFE_REGEX_OK; on failure returns
 * NULL, sets *err_code and writes a NUL-terminated message of at most
 * errcap bytes into err (either may be NULL / 0). */
tfe_regex* tfe_regex_compile(const char* pat, size_t len, tfe_regex_err* err_code,
                             char* err, size_t errcap);
void tfe_regex_free(tfe_regex* re); /* NULL is fine */

/* Number of capturing groups (group 0, the whole match, not counted). */
int tfe_regex_num_groups(const tfe_regex* re);
/* Index (1-based) of the named group, or -1. */
int tfe_regex_group_index(const tfe_regex* re, const char* name);

/* Reusable scratch memory for one regex; NULL on out of memory. */
tfe_regex_scratch* tfe_regex_scratch_new(const tfe_regex* re);
void tfe_regex_scratch_free(tfe_regex_scratch* s); /* NULL is fine */

/* RE2::FullMatch: 1 when the whole text matches, 0 when not, -1 when
 * memory ran out. scratch may be NULL (then one is made for the call). */
int tfe_regex_full_match(const tfe_regex* re, tfe_regex_scratch* scratch,
                         const char* text, size_t n);

/* Finds the leftmost-first match in text[start..n), with the whole text as
 * context for ^, \b and friends. anchor_start: the match must begin at
 * `start`; anchor_end: it must end at n. On a match returns 1 and, when
 * caps != NULL, writes ncaps pairs (begin, end) of byte offsets for group
 * 0..ncaps-1 (-1, -1 for a group that did not take part). Returns 0 for no
 * match and -1 when memory ran out. */
int tfe_regex_search(const tfe_regex* re, tfe_regex_scratch* scratch,
                     const char* text, size_t n, size_t start, int anchor_start,
                     int anchor_end, int64_t* caps, int ncaps);

/* RE2::Replace (global = 0) or RE2::GlobalReplace (global = 1) of
 * text[0..n) with `rewrite`, whose \0..\9 insert submatches and \\ a
 * backslash. On success returns the number of replacements (0 leaves the
 * text as it was) and sets *out (tfe_malloc'd, caller frees with tfe_free;
 * NULL when the count is 0) and *out_len. Returns -1 when memory ran out.
 * As in RE2, a rewrite naming a group the pattern lacks replaces nothing,
 * and a malformed escape ends that rewrite early. */
int64_t tfe_regex_replace(const tfe_regex* re, tfe_regex_scratch* scratch,
                          const char* text, size_t n, const char* rewrite,
                          size_t rewrite_len, int global, char** out,
                          size_t* out_len);

/* Largest group number a rewrite string refers to (RE2::MaxSubmatch). */
int tfe_regex_max_submatch(const char* rewrite, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* TFE_CORE_REGEX_H_ */
