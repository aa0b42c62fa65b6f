/* Session options as session.c reads them (defined here so that
 * session_options.c and session.c share the layout). */
#ifndef TFE_GRAPH_SESSION_INTERNAL_H_
#define TFE_GRAPH_SESSION_INTERNAL_H_

#include <stddef.h>

#include "tensorflow/c/c_api.h"

struct TF_SessionOptions {
  char* target;     /* never NULL */
  void* config;     /* serialized ConfigProto, config_len bytes; NULL when empty */
  size_t config_len;
};

#endif /* TFE_GRAPH_SESSION_INTERNAL_H_ */
