/* Unicode helpers shared by the text kernels: UTF-8 decoding by maximal
 * subparts (text_unicode.c) and full Unicode case mapping of UTF-8 text
 * (text_case.c, tables in the generated text_case_tables.c). */
#ifndef TFE_KERNELS_CPU_TEXT_CASE_H_
#define TFE_KERNELS_CPU_TEXT_CASE_H_

#include <stddef.h>
#include <stdint.h>

/* Decodes the UTF-8 character at s[*pos] (n bytes in all): 1 with *cp set,
 * or 0 for an ill-formed sequence (one maximal subpart); *pos moves past
 * what was read. */
int tfe_text_utf8_next(const unsigned char* s, size_t n, size_t* pos,
                       int32_t* cp);

/* Lowercases (upper == 0) or uppercases UTF-8 text the way TF's
 * StringLower/StringUpper with encoding 'utf-8' do: the text ends at its
 * first NUL byte, ill-formed sequences become U+FFFD, and each character
 * takes its full default case mapping (U+00DF uppercases to "SS"; a
 * capital sigma lowercases to the final form at the end of a word).
 * Returns a malloc'd buffer (tfe_free) with its length in *out_len, or
 * NULL when memory ran out. */
char* tfe_text_utf8_case_map(const char* s, size_t n, int upper,
                             size_t* out_len);

/* Generated tables (text_case_tables.c): sorted by code point. */
extern const uint32_t tfe_case_lower[][2];
extern const int tfe_case_lower_n;
extern const uint32_t tfe_case_upper[][2];
extern const int tfe_case_upper_n;
extern const uint32_t tfe_case_lower_full[][4];
extern const int tfe_case_lower_full_n;
extern const uint32_t tfe_case_upper_full[][4];
extern const int tfe_case_upper_full_n;
/* Ranges [first, last] of the Final_Sigma rule's character classes. */
extern const uint32_t tfe_case_ignorable[][2];
extern const int tfe_case_ignorable_n;
extern const uint32_t tfe_case_cased[][2];
extern const int tfe_case_cased_n;

#endif /* TFE_KERNELS_CPU_TEXT_CASE_H_ */
