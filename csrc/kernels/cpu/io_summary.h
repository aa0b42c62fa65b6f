/* Shared by the io_summary kernel files (io_summary_kernels.c: summaries;
 * io_summary_codec.c: WAV, PNG, spectrogram, MFCC; io_summary_writer.c:
 * summary writers; io_summary_readers.c: TF 1 readers). Private to
 * csrc/kernels/cpu. */
#ifndef TFE_KERNELS_CPU_IO_SUMMARY_H_
#define TFE_KERNELS_CPU_IO_SUMMARY_H_

#include <stddef.h>
#include <stdint.h>

#include "core/pb.h"
#include "kernels/cpu/kutil.h"

/* ---- protobuf helpers ---- */

/* A double field (wire type 1), left out when its bits are all zero (the
 * way proto3 writes a scalar that has no presence). */
void iosum_pb_double(tfe_pbw* b, int field, double v);
/* A TensorProto body for t the way TF's summaries write one: dtype,
 * shape and tensor_content, or string_val for strings. 0 when the dtype
 * has no host layout here (resource, variant). */
int iosum_pb_tensor(tfe_pbw* b, const TF_Tensor* t);

/* Writes a serialized SummaryMetadata back the way TF does after parsing
 * it (canonical field order, empty fields dropped). 0 (out untouched)
 * when it does not parse. */
int iosum_canon_metadata(const unsigned char* p, size_t n, tfe_pbw* out);

/* Element i of a real-number tensor as a double (all real dtypes,
 * half and bfloat16 included, and bool). */
double iosum_get_double(const TF_Tensor* t, int64_t i);

/* ---- histograms (TF's default buckets) ---- */

/* Builds a HistogramProto body from the n values of t. On a NaN or an
 * infinity returns 1 (NaN) or 2 (inf) after adding the values before it,
 * else 0. */
int iosum_histogram(const TF_Tensor* t, tfe_pbw* out);

/* ---- PNG and WAV ---- */

/* PNG bytes of one image: rows of row_bytes bytes, channels 1..4, bits 8
 * or 16 (16-bit samples in host order), level -1..9 (zlib's levels).
 * Returns 1 with *out (tfe_malloc'd) / *len, 0 when memory runs out or
 * the size is not encodable (zero width or height). */
int iosum_png_encode(const uint8_t* data, int width, int height,
                     int64_t row_bytes, int channels, int bits, int level,
                     unsigned char** out, size_t* len);

/* 16-bit PCM WAV bytes of num_frames x num_channels float samples
 * (interleaved). Returns 1 with *out (tfe_malloc'd) / *len, or 0 with
 * *err (static text or a message written to errbuf) set. */
int iosum_wav_encode(const float* audio, uint64_t sample_rate,
                     uint64_t num_channels, uint64_t num_frames,
                     unsigned char** out, size_t* len, char* errbuf,
                     size_t errcap);

/* ---- summaries built from images and audio ---- */

/* Appends the Summary.Value entries of ImageSummary (tag/image/i or
 * tag/image) for the images of `tensor` ([batch, h, w, depth]; uint8,
 * half, float, double) to `summary`. bad_color: uint8 vector (n
 * entries). Returns 1, or 0 with k->status set. */
int iosum_add_images(tfe_kernel_context* k, tfe_pbw* summary,
                     const char* tag, size_t tag_len, const TF_Tensor* tensor,
                     int max_images, const uint8_t* bad_color,
                     int64_t bad_color_n);
/* Appends AudioSummary's values for tensor ([batch, frames] or [batch,
 * frames, channels] float). Returns 1, or 0 with k->status set. */
int iosum_add_audio(tfe_kernel_context* k, tfe_pbw* summary,
                    const char* tag, size_t tag_len, const TF_Tensor* tensor,
                    float sample_rate, int max_outputs);

/* Stores the bytes as a new scalar string output `index`. Returns 1 or 0
 * with k->status set. */
int iosum_set_string_output(tfe_kernel_context* k, int index,
                            const void* data, size_t len);

/* Registration of the other io_summary files. */
void tfe_register_cpu_io_summary_codec_kernels(void);
void tfe_register_cpu_io_summary_writer_kernels(void);
void tfe_register_cpu_io_summary_reader_kernels(void);

#endif /* TFE_KERNELS_CPU_IO_SUMMARY_H_ */
