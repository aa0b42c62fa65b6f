/* TF_Status: codes, messages, payloads, errno mapping, NULL handling. */
#include <errno.h>

#include "tensorflow/c/tf_status.h"
#include "tfe/tfe.h"
#include "tfe_test.h"

TEST(fresh_status_is_ok) {
  TF_Status* s = TF_NewStatus();
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TF_Message(s), "");
  TF_DeleteStatus(s);
}

TEST(every_code_round_trips) {
  TF_Status* s = TF_NewStatus();
  for (int c = 1; c <= 16; c++) {
    char msg[32];
    snprintf(msg, sizeof msg, "m%d", c);
    TF_SetStatus(s, (TF_Code)c, msg);
    CHECK_EQ_INT(TF_GetCode(s), c);
    CHECK_STR_EQ(TF_Message(s), msg);
  }
  TF_DeleteStatus(s);
}

TEST(ok_drops_message_and_payloads) {
  TF_Status* s = TF_NewStatus();
  TF_SetStatus(s, TF_INTERNAL, "bad");
  TF_SetPayload(s, "k", "v");
  TF_SetStatus(s, TF_OK, "ignored");
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TF_Message(s), "");
  int n = 0;
  TF_ForEachPayload(s, NULL, &n); /* NULL visitor is ignored */
  TF_DeleteStatus(s);
}

TEST(null_message_is_empty) {
  TF_Status* s = TF_NewStatus();
  TF_SetStatus(s, TF_NOT_FOUND, NULL);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_STR_EQ(TF_Message(s), "");
  TF_DeleteStatus(s);
}

TEST(null_status_is_harmless) {
  TF_DeleteStatus(NULL);
  TF_SetStatus(NULL, TF_INTERNAL, "x");
  TF_SetPayload(NULL, "k", "v");
  TF_SetStatusFromIOError(NULL, ENOENT, "x");
  CHECK_EQ_INT(TF_GetCode(NULL), TF_OK);
  CHECK_STR_EQ(TF_Message(NULL), "");
}

TEST(out_of_table_code_becomes_unknown) {
  TF_Status* s = TF_NewStatus();
  TF_SetStatus(s, (TF_Code)99, "weird");
  CHECK_CODE(s, TF_UNKNOWN);
  TF_DeleteStatus(s);
}

static void collect(const char* k, const char* v, void* cap) {
  char* out = (char*)cap;
  strcat(out, k);
  strcat(out, "=");
  strcat(out, v);
  strcat(out, ";");
}

TEST(payloads_overwrite_and_ignore_ok) {
  TF_Status* s = TF_NewStatus();
  char buf[256] = "";
  TF_SetPayload(s, "on_ok", "v");
  TF_ForEachPayload(s, collect, buf);
  CHECK_STR_EQ(buf, "");
  TF_SetStatus(s, TF_INTERNAL, "x");
  TF_SetPayload(s, "a", "1");
  TF_SetPayload(s, "a", "2");
  TF_SetPayload(s, NULL, "ignored");
  TF_ForEachPayload(s, collect, buf);
  CHECK_STR_EQ(buf, "a=2;");
  TF_DeleteStatus(s);
}

TEST(errno_mapping) {
  TF_Status* s = TF_NewStatus();
  struct { int e; int code; } cases[] = {
      {ENOENT, TF_NOT_FOUND},        {EACCES, TF_PERMISSION_DENIED},
      {EEXIST, TF_ALREADY_EXISTS},   {ENOSPC, TF_RESOURCE_EXHAUSTED},
      {EINVAL, TF_INVALID_ARGUMENT}, {ENOTDIR, TF_FAILED_PRECONDITION},
      {EAGAIN, TF_UNAVAILABLE},      {ENOSYS, TF_UNIMPLEMENTED},
      {ETIMEDOUT, TF_DEADLINE_EXCEEDED}, {ERANGE, TF_OUT_OF_RANGE},
      {ECANCELED, TF_CANCELLED},     {EDEADLK, TF_ABORTED},
      {12345, TF_UNKNOWN}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    TF_SetStatusFromIOError(s, cases[i].e, "the/path");
    CHECK_EQ_INT(TF_GetCode(s), cases[i].code);
    CHECK_STR_CONTAINS(TF_Message(s), "the/path");
  }
  TF_SetStatusFromIOError(s, 0, "ok");
  CHECK_CODE(s, TF_OK);
  TF_DeleteStatus(s);
}

TEST(code_names_come_from_one_table) {
  CHECK_STR_EQ(TFE_CodeName(TF_OK), "OK");
  CHECK_STR_EQ(TFE_CodeName(TF_INVALID_ARGUMENT), "INVALID_ARGUMENT");
  CHECK_STR_EQ(TFE_CodeName(TF_UNAUTHENTICATED), "UNAUTHENTICATED");
  CHECK_STR_EQ(TFE_CodeName((TF_Code)17), "UNKNOWN_CODE");
}

TEST(tsl_names_share_the_implementation) {
  TSL_Status* s = TSL_NewStatus();
  TSL_SetStatus(s, TSL_DATA_LOSS, "tsl");
  CHECK_EQ_INT(TF_GetCode(s), TF_DATA_LOSS);
  CHECK_STR_EQ(TSL_Message(s), "tsl");
  TSL_DeleteStatus(s);
}

TEST(live_count_tracks_statuses) {
  int64_t before = TFE_LiveObjectCount(TFE_OBJ_STATUS);
  TF_Status* s = TF_NewStatus();
  CHECK_EQ_INT(TFE_LiveObjectCount(TFE_OBJ_STATUS), before + 1);
  TF_DeleteStatus(s);
  CHECK_EQ_INT(TFE_LiveObjectCount(TFE_OBJ_STATUS), before);
  CHECK_EQ_INT(TFE_LiveObjectCount((TFE_ObjectKind)99), -1);
}

TEST(allocation_failure_is_reported) {
  TFE_TestFailAllocationsAfter(0);
  TF_Status* s = TF_NewStatus();
  TFE_TestFailAllocationsAfter(-1);
  CHECK(s == NULL);
  s = TF_NewStatus();
  CHECK(s != NULL);
  /* message allocation failing still records the code */
  TFE_TestFailAllocationsAfter(0);
  TF_SetStatus(s, TF_ABORTED, "lost message");
  TFE_TestFailAllocationsAfter(-1);
  CHECK_CODE(s, TF_ABORTED);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
