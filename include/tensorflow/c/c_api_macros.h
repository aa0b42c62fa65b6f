/* tfe: symbol-export and struct-size helpers shared by every public header.
 *
 * TF_CAPI_EXPORT marks a function that libtfe exports. The library is built
 * with hidden visibility, so anything without this marker stays private.
 * Define TF_CAPI_EXPORT yourself before including any header to override it
 * (tfe's cffi binding does this to read the declarations). */
#ifndef TENSORFLOW_C_C_API_MACROS_H_
#define TENSORFLOW_C_C_API_MACROS_H_

#ifndef TF_CAPI_EXPORT
#if defined(SWIG)
#define TF_CAPI_EXPORT
#elif defined(_WIN32)
#ifdef TF_COMPILE_LIBRARY
#define TF_CAPI_EXPORT __declspec(dllexport)
#else
#define TF_CAPI_EXPORT __declspec(dllimport)
#endif
#else
#define TF_CAPI_EXPORT __attribute__((visibility("default")))
#endif
#endif /* TF_CAPI_EXPORT */

/* The C API's one-byte boolean (0 or 1) used by the plugin interfaces;
 * not to be confused with TF_BOOL, the tensor element type. */
#ifndef TF_Bool
#define TF_Bool unsigned char
#endif

/* Byte offset just past MEMBER inside TYPE. Plugin ABI structs use this to
 * compute their *_STRUCT_SIZE constants, so a newer core can tell how many
 * fields an older plugin knew about. */
#ifndef TF_OFFSET_OF_END
#define TF_OFFSET_OF_END(TYPE, MEMBER) \
  (offsetof(TYPE, MEMBER) + sizeof(((TYPE*)0)->MEMBER))
#endif

#endif /* TENSORFLOW_C_C_API_MACROS_H_ */
