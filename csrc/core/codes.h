/* The one table of TF error codes. Every list of codes in tfe (names, the
 * Python exception classes, messages) is generated from it, so they cannot
 * drift apart. X(ENUM_SUFFIX, value) */
#ifndef TFE_CORE_CODES_H_
#define TFE_CORE_CODES_H_

#define TFE_CODE_TABLE(X)    \
  X(OK, 0)                   \
  X(CANCELLED, 1)            \
  X(UNKNOWN, 2)              \
  X(INVALID_ARGUMENT, 3)     \
  X(DEADLINE_EXCEEDED, 4)    \
  X(NOT_FOUND, 5)            \
  X(ALREADY_EXISTS, 6)       \
  X(PERMISSION_DENIED, 7)    \
  X(RESOURCE_EXHAUSTED, 8)   \
  X(FAILED_PRECONDITION, 9)  \
  X(ABORTED, 10)             \
  X(OUT_OF_RANGE, 11)        \
  X(UNIMPLEMENTED, 12)       \
  X(INTERNAL, 13)            \
  X(UNAVAILABLE, 14)         \
  X(DATA_LOSS, 15)           \
  X(UNAUTHENTICATED, 16)

#endif /* TFE_CORE_CODES_H_ */
