/* tfe: what a filesystem reports about one path (env.h, filesystem
 * plugins). */
#ifndef TENSORFLOW_C_TF_FILE_STATISTICS_H_
#define TENSORFLOW_C_TF_FILE_STATISTICS_H_

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct TF_FileStatistics {
  /* Size in bytes; for directories the value is filesystem-specific. */
  int64_t length;
  /* Last modification time, nanoseconds since the Unix epoch. */
  int64_t mtime_nsec;
  /* True for a directory. */
  bool is_directory;
} TF_FileStatistics;

#ifdef __cplusplus
}
#endif

#endif /* TENSORFLOW_C_TF_FILE_STATISTICS_H_ */
