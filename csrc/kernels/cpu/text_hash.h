/* Hash functions of TF's string-to-bucket ops, written from their published
 * descriptions (csrc/kernels/cpu/text_hash.c):
 * - tfe_farmhash_fingerprint64: FarmHash's Fingerprint64 (the "na" 64-bit
 *   hash with its fixed seed), used by StringToHashBucketFast;
 * - tfe_siphash24: SipHash-2-4 with a 128-bit key given as two 64-bit
 *   words, used by StringToHashBucketStrong;
 * - tfe_tf_legacy_hash64: TF's original Hash64 (MurmurHash64A with seed
 *   0xDECAFCAFFE), used by StringToHashBucket. */
#ifndef TFE_KERNELS_CPU_TEXT_HASH_H_
#define TFE_KERNELS_CPU_TEXT_HASH_H_

#include <stddef.h>
#include <stdint.h>

uint64_t tfe_farmhash_fingerprint64(const char* s, size_t len);
uint64_t tfe_siphash24(uint64_t k0, uint64_t k1, const char* s, size_t len);
uint64_t tfe_tf_legacy_hash64(const char* s, size_t len);

#endif /* TFE_KERNELS_CPU_TEXT_HASH_H_ */
