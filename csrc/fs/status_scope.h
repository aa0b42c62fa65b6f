/* Public entry points accept a NULL TF_Status. These macros give the body
 * a non-NULL `st`: the caller's status, or a scratch one on the stack that
 * is released at the end. */
#ifndef TFE_FS_STATUS_SCOPE_H_
#define TFE_FS_STATUS_SCOPE_H_

#include "fs/fs.h"

#define TFE_STATUS_BEGIN(status)   \
  TF_Status tfe_scratch_;          \
  TF_Status* st = (status);        \
  if (st == NULL) {                \
    tfe_scratch_init(&tfe_scratch_); \
    st = &tfe_scratch_;            \
  }

#define TFE_STATUS_END()                                   \
  do {                                                     \
    if (st == &tfe_scratch_) tfe_scratch_release(&tfe_scratch_); \
  } while (0)

#endif /* TFE_FS_STATUS_SCOPE_H_ */
