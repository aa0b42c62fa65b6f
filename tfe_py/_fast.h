/* tfe_py's dispatch glue: declarations.
 *
 * This file is read twice by build_ffi.py: as part of the cffi cdef (so it
 * holds nothing but prototypes: no #include, no include guard, no macro) and,
 * through _fast.c, by the C compiler. Everything here is private to tfe_py;
 * it is compiled into the extension module, not into libtfe, and it uses
 * only the public TFE_* and TF_* API.
 *
 * Error reporting: the functions that execute an op create their own
 * TF_Status. When they fail, that status is kept in a per-thread slot and
 * the function returns NULL (or -1); the caller then takes it with
 * tfe_py_take_error() and owns it. A later failure on the same thread
 * frees an error that was never taken. Every failure keeps a status, so
 * tfe_py_take_error() returning NULL after a failure means that not even a
 * TF_Status could be allocated: out of memory.
 *
 * Attribute blob: attrs are passed as one byte string of records, each
 *   u8 kind, u16 name length, name bytes, payload
 * with native byte order and no padding (the caller packs it with Python's
 * struct module, format prefix "="). Kinds and payloads:
 *   'b' u8 | 'i' i64 | 'f' f64 (stored as float) | 't' i32 dtype
 *   's' u32 n, n bytes (string) | 'n' u32 n, n bytes (function name)
 *   'S' i32 rank (-1: unknown rank), rank x i64 (-1: unknown dim)
 *   'B','I','F','T' u32 count, count x (u8 | i64 | f64 | i32)
 *   'L' u32 count, count x (u32 n, n bytes)       (list of strings)
 *   'P' u32 count, count x (i32 rank, rank x i64)  (list of shapes)
 *   'X' u64 address of a TF_Tensor the caller keeps alive (tensor attr)
 * A malformed blob gives INVALID_ARGUMENT, never a crash. */

/* Runs op `op_name` once on `ctx`. `device` may be NULL (placement by the
 * runtime). The inputs are `num_args` arguments of the op in order;
 * `arg_lengths[i]` is -1 for a single tensor (one entry of `inputs`) or the
 * number of entries forming list argument i (TFE_OpAddInputList).
 * `arg_lengths` may be NULL when every argument is a single tensor.
 * Attributes from the blob are set before the inputs: as in TF, an attr
 * keeps the first value it gets, so an explicit attr wins over the value
 * the runtime would infer from the inputs, and an input that disagrees
 * with it is reported by TFE_Execute. On success returns the number of
 * outputs written to `outputs` (at most `max_outputs`); the caller owns
 * them. On failure returns -1, writes no output, and leaves the status for
 * tfe_py_take_error(). Borrows every argument. */
int tfe_py_fast_execute(TFE_Context* ctx, const char* op_name,
                        const char* device, const char* attrs,
                        size_t attrs_len, TFE_TensorHandle* const* inputs,
                        const int* arg_lengths, int num_args,
                        TFE_TensorHandle** outputs, int max_outputs);

/* Shorthands for single-output ops with one or two single-tensor inputs.
 * Return the new output handle (owned by the caller) or NULL on failure
 * (then call tfe_py_take_error()); a run that reports success without an
 * output is a failure (INTERNAL naming the op). */
TFE_TensorHandle* tfe_py_fast_execute1(TFE_Context* ctx, const char* op_name,
                                       const char* device, const char* attrs,
                                       size_t attrs_len, TFE_TensorHandle* x);
TFE_TensorHandle* tfe_py_fast_execute2(TFE_Context* ctx, const char* op_name,
                                       const char* device, const char* attrs,
                                       size_t attrs_len, TFE_TensorHandle* x,
                                       TFE_TensorHandle* y);

/* A new host tensor handle of `dtype` (not TF_STRING) and shape
 * dims[0..num_dims) holding a copy of `nbytes` bytes at `data` (which must
 * be exactly the tensor's byte size). `dims` may be NULL when num_dims is 0.
 * Returns a handle owned by the caller, or NULL on failure (then call
 * tfe_py_take_error()). */
TFE_TensorHandle* tfe_py_new_handle(TF_DataType dtype, const int64_t* dims,
                                    int num_dims, const void* data,
                                    size_t nbytes);

/* The status of this thread's last failure, or NULL when there is none.
 * Ownership moves to the caller (free it with TF_DeleteStatus). */
TF_Status* tfe_py_take_error(void);

/* Version of this glue's blob format; tfe_py checks it on import. */
int tfe_py_fast_abi(void);
