/* tfe: logging for plugins and applications.
 *
 * Messages go to stderr. TF_Log prints a message when its level is at least
 * the value of the environment variable TF_CPP_MIN_LOG_LEVEL (default 0,
 * i.e. everything); TF_FATAL messages are always printed. TF_VLog and
 * TF_DVLog print when their verbosity level is at most TF_CPP_MAX_VLOG_LEVEL
 * (default 0, i.e. level-0 messages only) and TF_CPP_MIN_LOG_LEVEL is 0, as
 * in TensorFlow; TF_DVLog prints nothing in builds made with NDEBUG. The
 * format string follows printf. The environment is read on first use.
 *
 * Difference from TensorFlow: TF_Log(TF_FATAL, ...) prints the message but
 * does not abort the process. */
#ifndef TENSORFLOW_C_LOGGING_H_
#define TENSORFLOW_C_LOGGING_H_

#include "tensorflow/c/c_api_macros.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum TF_LogLevel {
  TF_INFO = 0,
  TF_WARNING = 1,
  TF_ERROR = 2,
  TF_FATAL = 3
} TF_LogLevel;

TF_CAPI_EXPORT extern void TF_Log(TF_LogLevel level, const char* fmt, ...);
TF_CAPI_EXPORT extern void TF_VLog(int level, const char* fmt, ...);
TF_CAPI_EXPORT extern void TF_DVLog(int level, const char* fmt, ...);

#ifdef __cplusplus
}
#endif

#endif /* TENSORFLOW_C_LOGGING_H_ */
