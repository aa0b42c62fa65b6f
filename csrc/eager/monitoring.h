/* Internal view of the monitoring registry (csrc/eager/monitoring.c), for
 * white-box tests. Not exported from libtfe. */
#ifndef TFE_EAGER_MONITORING_H_
#define TFE_EAGER_MONITORING_H_

#include <stddef.h>

/* The metric currently registered under `name` (any of the TFE_Monitoring*
 * metric pointers, as void*), or NULL when the name is free. */
const void* tfe_monitoring_registered(const char* name);

/* Number of names registered right now. */
size_t tfe_monitoring_registered_count(void);

#endif /* TFE_EAGER_MONITORING_H_ */
