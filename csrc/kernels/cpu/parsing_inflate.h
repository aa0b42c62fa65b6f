/* DEFLATE decoding in zlib or gzip framing for DecodeCompressed
 * (parsing_inflate.c). Private to csrc/kernels/cpu. */
#ifndef TFE_KERNELS_CPU_PARSING_INFLATE_H_
#define TFE_KERNELS_CPU_PARSING_INFLATE_H_

#include <stddef.h>

enum {
  TFE_INFLATE_OK = 0,
  TFE_INFLATE_DATA_ERROR = -3, /* zlib's Z_DATA_ERROR; *err says why */
  TFE_INFLATE_NOMEM = -4       /* out of memory, or more than `limit` bytes */
};

/* Decompresses in[0..n): one zlib stream (gzip == 0; bytes after it are
 * ignored) or gzip members one after another (gzip != 0). Input that ends
 * early gives what was decoded up to there. On TFE_INFLATE_OK *out (owned
 * by the caller, free with tfe_free; NULL when empty) holds *out_len bytes;
 * on TFE_INFLATE_DATA_ERROR *err is zlib's message for the problem. */
int tfe_inflate(const unsigned char* in, size_t n, int gzip, size_t limit, unsigned char** out,
                size_t* out_len, const char** err);

/* tfe_inflate with two more results for PNG: with keep_partial, a data
 * error still hands back the bytes decoded before it (free them); *ended
 * (may be NULL) says whether the stream reached its proper end. */
int tfe_inflate_ex(const unsigned char* in, size_t n, int gzip, size_t limit, int keep_partial,
                   unsigned char** out, size_t* out_len, const char** err, int* ended);

#endif /* TFE_KERNELS_CPU_PARSING_INFLATE_H_ */
