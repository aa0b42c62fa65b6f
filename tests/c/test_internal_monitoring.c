/* White-box checks of the monitoring name registry (csrc/eager/monitoring.c):
 * which metric holds a name after duplicates and deletions. */
#include <stddef.h>

#include "eager/monitoring.h"
#include "tensorflow/c/eager/c_api_experimental.h"
#include "tfe_test.h"

TEST(registry_tracks_names) {
  TF_Status* s = TF_NewStatus();
  size_t before = tfe_monitoring_registered_count();
  TFE_MonitoringCounter0* c =
      TFE_MonitoringNewCounter0("/tfe/internal/a", s, "d");
  TFE_MonitoringBuckets* b = TFE_MonitoringNewExponentialBuckets(1, 2, 2);
  TFE_MonitoringSampler1* sm;
  CHECK_CODE(s, TF_OK);
  CHECK(tfe_monitoring_registered("/tfe/internal/a") == (const void*)c);
  CHECK_EQ_SIZE(tfe_monitoring_registered_count(), before + 1);
  sm = TFE_MonitoringNewSampler1("/tfe/internal/b", b, s, "d", "l");
  CHECK_CODE(s, TF_OK);
  CHECK(tfe_monitoring_registered("/tfe/internal/b") == (const void*)sm);
  CHECK_EQ_SIZE(tfe_monitoring_registered_count(), before + 2);
  /* Failed creation registers nothing. */
  CHECK(TFE_MonitoringNewCounter1("/tfe/internal/c", s, "d", NULL) == NULL);
  CHECK(tfe_monitoring_registered("/tfe/internal/c") == NULL);
  TFE_MonitoringDeleteCounter0(c);
  CHECK(tfe_monitoring_registered("/tfe/internal/a") == NULL);
  TFE_MonitoringDeleteSampler1(sm);
  CHECK_EQ_SIZE(tfe_monitoring_registered_count(), before);
  TFE_MonitoringDeleteBuckets(b);
  TF_DeleteStatus(s);
}

TEST(registry_duplicate_takes_over) {
  TF_Status* s = TF_NewStatus();
  size_t before = tfe_monitoring_registered_count();
  TFE_MonitoringIntGauge0* old_g =
      TFE_MonitoringNewIntGauge0("/tfe/internal/dup", s, "d");
  TFE_MonitoringBoolGauge0* new_g;
  CHECK_CODE(s, TF_OK);
  new_g = TFE_MonitoringNewBoolGauge0("/tfe/internal/dup", s, "d");
  CHECK_CODE(s, TF_OK);
  /* One entry, held by the newer metric. */
  CHECK(tfe_monitoring_registered("/tfe/internal/dup") == (const void*)new_g);
  CHECK_EQ_SIZE(tfe_monitoring_registered_count(), before + 1);
  /* Deleting the older metric leaves the newer one registered. */
  TFE_MonitoringDeleteIntGauge0(old_g);
  CHECK(tfe_monitoring_registered("/tfe/internal/dup") == (const void*)new_g);
  TFE_MonitoringDeleteBoolGauge0(new_g);
  CHECK(tfe_monitoring_registered("/tfe/internal/dup") == NULL);
  CHECK_EQ_SIZE(tfe_monitoring_registered_count(), before);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
