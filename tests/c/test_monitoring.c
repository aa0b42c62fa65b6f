/* Monitoring metrics (TFE_Monitoring* of c_api_experimental.h): counters,
 * gauges, samplers, their cells, the name registry, argument checks and
 * concurrent updates. */
#include <float.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/eager/c_api_experimental.h"
#include "tfe/tfe.h"
#include "tfe_test.h"

/* ------------------------------------------------------------------------
 * Helpers. */

static void check_string_cell(TFE_MonitoringStringGaugeCell* cell,
                              const char* want) {
  TF_Buffer* buf = TF_NewBuffer();
  TFE_MonitoringStringGaugeCellValue(cell, buf);
  CHECK_EQ_SIZE(buf->length, strlen(want));
  CHECK(buf->data_deallocator != NULL);
  CHECK(buf->length == 0 || memcmp(buf->data, want, buf->length) == 0);
  TF_DeleteBuffer(buf);
}

/* A decoded tensorflow.HistogramProto. */
typedef struct {
  double min, max, num, sum, sum_squares;
  double limits[64];
  int nlimits;
  double counts[64];
  int ncounts;
  int fields_seen; /* bit i set when field i was present */
} histo;

static int read_varint(const unsigned char** p, const unsigned char* end,
                       uint64_t* v) {
  int shift = 0;
  *v = 0;
  while (*p < end && shift < 64) {
    unsigned char b = *(*p)++;
    *v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) return 1;
    shift += 7;
  }
  return 0;
}

static double read_double(const unsigned char* p) {
  uint64_t bits = 0;
  double d;
  int i;
  for (i = 7; i >= 0; i--) bits = (bits << 8) | p[i];
  memcpy(&d, &bits, sizeof(d));
  return d;
}

/* Decodes buf into h (zero for absent scalars, as proto3 reads them). */
static void decode_histo(const TF_Buffer* buf, histo* h) {
  const unsigned char* p = (const unsigned char*)buf->data;
  const unsigned char* end = p + buf->length;
  memset(h, 0, sizeof(*h));
  while (p < end) {
    uint64_t tag;
    int field, wire;
    CHECK(read_varint(&p, end, &tag));
    field = (int)(tag >> 3);
    wire = (int)(tag & 7);
    CHECK(field >= 1 && field <= 7);
    h->fields_seen |= 1 << field;
    if (field <= 5) {
      double v;
      CHECK_EQ_INT(wire, 1);
      CHECK(end - p >= 8);
      v = read_double(p);
      p += 8;
      if (field == 1) h->min = v;
      if (field == 2) h->max = v;
      if (field == 3) h->num = v;
      if (field == 4) h->sum = v;
      if (field == 5) h->sum_squares = v;
    } else {
      uint64_t len;
      double* dst = field == 6 ? h->limits : h->counts;
      int* n = field == 6 ? &h->nlimits : &h->ncounts;
      CHECK_EQ_INT(wire, 2); /* packed */
      CHECK(read_varint(&p, end, &len));
      CHECK(len % 8 == 0 && (uint64_t)(end - p) >= len);
      for (; len > 0; len -= 8, p += 8) {
        CHECK(*n < 64);
        dst[(*n)++] = read_double(p);
      }
    }
  }
}

static void sampler_value(TFE_MonitoringSamplerCell* cell, histo* h) {
  TF_Buffer* buf = TF_NewBuffer();
  TFE_MonitoringSamplerCellValue(cell, buf);
  CHECK(buf->data != NULL);
  decode_histo(buf, h);
  TF_DeleteBuffer(buf);
}

/* ------------------------------------------------------------------------
 * Counters. */

TEST(counter0_increments) {
  TF_Status* s = TF_NewStatus();
  TFE_MonitoringCounter0* c =
      TFE_MonitoringNewCounter0("/tfe/test/counter0", s, "a counter");
  TFE_MonitoringCounterCell* cell;
  CHECK_CODE(s, TF_OK);
  CHECK(c != NULL);
  cell = TFE_MonitoringGetCellCounter0(c);
  CHECK(cell != NULL);
  CHECK(TFE_MonitoringGetCellCounter0(c) == cell);
  CHECK_EQ_INT(TFE_MonitoringCounterCellValue(cell), 0);
  TFE_MonitoringCounterCellIncrementBy(cell, 1);
  TFE_MonitoringCounterCellIncrementBy(cell, 41);
  TFE_MonitoringCounterCellIncrementBy(cell, 0);
  CHECK_EQ_INT(TFE_MonitoringCounterCellValue(cell), 42);
  TFE_MonitoringDeleteCounter0(c);
  TF_DeleteStatus(s);
}

TEST(counter_negative_increment_decrements) {
  /* TF only DCHECKs the sign; its release builds subtract. */
  TF_Status* s = TF_NewStatus();
  TFE_MonitoringCounter0* c =
      TFE_MonitoringNewCounter0("/tfe/test/counter_neg", s, "d");
  TFE_MonitoringCounterCell* cell = TFE_MonitoringGetCellCounter0(c);
  TFE_MonitoringCounterCellIncrementBy(cell, 10);
  TFE_MonitoringCounterCellIncrementBy(cell, -3);
  CHECK_EQ_INT(TFE_MonitoringCounterCellValue(cell), 7);
  TFE_MonitoringDeleteCounter0(c);
  TF_DeleteStatus(s);
}

TEST(counter_label_cells) {
  TF_Status* s = TF_NewStatus();
  TFE_MonitoringCounter1* c1 =
      TFE_MonitoringNewCounter1("/tfe/test/counter1", s, "d", "op");
  TFE_MonitoringCounter2* c2;
  TFE_MonitoringCounterCell *a, *b, *ab, *ba;
  char label[16];
  CHECK_CODE(s, TF_OK);
  c2 = TFE_MonitoringNewCounter2("/tfe/test/counter2", s, "d", "op", "dev");
  CHECK_CODE(s, TF_OK);
  a = TFE_MonitoringGetCellCounter1(c1, "MatMul");
  b = TFE_MonitoringGetCellCounter1(c1, "Add");
  CHECK(a != NULL && b != NULL && a != b);
  /* Same values, other storage: still the same cell. */
  strcpy(label, "MatMul");
  CHECK(TFE_MonitoringGetCellCounter1(c1, label) == a);
  TFE_MonitoringCounterCellIncrementBy(a, 5);
  TFE_MonitoringCounterCellIncrementBy(b, 2);
  CHECK_EQ_INT(TFE_MonitoringCounterCellValue(a), 5);
  CHECK_EQ_INT(TFE_MonitoringCounterCellValue(b), 2);
  /* The empty string is a label value like any other. */
  CHECK(TFE_MonitoringGetCellCounter1(c1, "") != NULL);
  CHECK(TFE_MonitoringGetCellCounter1(c1, "") != a);

  ab = TFE_MonitoringGetCellCounter2(c2, "a", "b");
  ba = TFE_MonitoringGetCellCounter2(c2, "b", "a");
  CHECK(ab != NULL && ba != NULL && ab != ba);
  /* Label boundaries matter: ("ab","") is not ("a","b"). */
  CHECK(TFE_MonitoringGetCellCounter2(c2, "ab", "") != ab);
  CHECK(TFE_MonitoringGetCellCounter2(c2, "a", "b") == ab);
  TFE_MonitoringCounterCellIncrementBy(ab, 3);
  CHECK_EQ_INT(TFE_MonitoringCounterCellValue(ab), 3);
  CHECK_EQ_INT(TFE_MonitoringCounterCellValue(ba), 0);
  TFE_MonitoringDeleteCounter1(c1);
  TFE_MonitoringDeleteCounter2(c2);
  TF_DeleteStatus(s);
}

TEST(many_cells_keep_their_addresses) {
  TF_Status* s = TF_NewStatus();
  TFE_MonitoringCounter1* c =
      TFE_MonitoringNewCounter1("/tfe/test/many", s, "d", "i");
  TFE_MonitoringCounterCell* cells[500];
  char label[32];
  int i;
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < 500; i++) {
    snprintf(label, sizeof(label), "cell%d", i);
    cells[i] = TFE_MonitoringGetCellCounter1(c, label);
    CHECK(cells[i] != NULL);
    TFE_MonitoringCounterCellIncrementBy(cells[i], i);
  }
  for (i = 0; i < 500; i++) {
    snprintf(label, sizeof(label), "cell%d", i);
    CHECK(TFE_MonitoringGetCellCounter1(c, label) == cells[i]);
    CHECK_EQ_INT(TFE_MonitoringCounterCellValue(cells[i]), i);
  }
  TFE_MonitoringDeleteCounter1(c);
  TF_DeleteStatus(s);
}

/* ------------------------------------------------------------------------
 * Gauges. */

TEST(int_gauges) {
  TF_Status* s = TF_NewStatus();
  TFE_MonitoringIntGauge0* g0 =
      TFE_MonitoringNewIntGauge0("/tfe/test/ig0", s, "d");
  TFE_MonitoringIntGauge1* g1;
  TFE_MonitoringIntGauge2* g2;
  TFE_MonitoringIntGaugeCell* c;
  CHECK_CODE(s, TF_OK);
  g1 = TFE_MonitoringNewIntGauge1("/tfe/test/ig1", s, "d", "l1");
  CHECK_CODE(s, TF_OK);
  g2 = TFE_MonitoringNewIntGauge2("/tfe/test/ig2", s, "d", "l1", "l2");
  CHECK_CODE(s, TF_OK);

  c = TFE_MonitoringGetCellIntGauge0(g0);
  CHECK(c != NULL && c == TFE_MonitoringGetCellIntGauge0(g0));
  CHECK_EQ_INT(TFE_MonitoringIntGaugeCellValue(c), 0);
  TFE_MonitoringIntGaugeCellSet(c, 17);
  TFE_MonitoringIntGaugeCellSet(c, -5);
  CHECK_EQ_INT(TFE_MonitoringIntGaugeCellValue(c), -5);
  TFE_MonitoringIntGaugeCellSet(c, INT64_MAX);
  CHECK(TFE_MonitoringIntGaugeCellValue(c) == INT64_MAX);

  c = TFE_MonitoringGetCellIntGauge1(g1, "x");
  CHECK(c == TFE_MonitoringGetCellIntGauge1(g1, "x"));
  CHECK(c != TFE_MonitoringGetCellIntGauge1(g1, "y"));
  TFE_MonitoringIntGaugeCellSet(c, 3);
  CHECK_EQ_INT(TFE_MonitoringIntGaugeCellValue(c), 3);
  CHECK_EQ_INT(
      TFE_MonitoringIntGaugeCellValue(TFE_MonitoringGetCellIntGauge1(g1, "y")),
      0);

  c = TFE_MonitoringGetCellIntGauge2(g2, "x", "y");
  CHECK(c == TFE_MonitoringGetCellIntGauge2(g2, "x", "y"));
  TFE_MonitoringIntGaugeCellSet(c, 9);
  CHECK_EQ_INT(TFE_MonitoringIntGaugeCellValue(c), 9);
  CHECK_EQ_INT(TFE_MonitoringIntGaugeCellValue(
                   TFE_MonitoringGetCellIntGauge2(g2, "y", "x")),
               0);
  TFE_MonitoringDeleteIntGauge0(g0);
  TFE_MonitoringDeleteIntGauge1(g1);
  TFE_MonitoringDeleteIntGauge2(g2);
  TF_DeleteStatus(s);
}

TEST(bool_gauges) {
  TF_Status* s = TF_NewStatus();
  TFE_MonitoringBoolGauge0* g0 =
      TFE_MonitoringNewBoolGauge0("/tfe/test/bg0", s, "d");
  TFE_MonitoringBoolGauge1* g1;
  TFE_MonitoringBoolGauge2* g2;
  TFE_MonitoringBoolGaugeCell* c;
  CHECK_CODE(s, TF_OK);
  g1 = TFE_MonitoringNewBoolGauge1("/tfe/test/bg1", s, "d", "l1");
  CHECK_CODE(s, TF_OK);
  g2 = TFE_MonitoringNewBoolGauge2("/tfe/test/bg2", s, "d", "l1", "l2");
  CHECK_CODE(s, TF_OK);

  c = TFE_MonitoringGetCellBoolGauge0(g0);
  CHECK(c != NULL && c == TFE_MonitoringGetCellBoolGauge0(g0));
  CHECK(!TFE_MonitoringBoolGaugeCellValue(c));
  TFE_MonitoringBoolGaugeCellSet(c, true);
  CHECK(TFE_MonitoringBoolGaugeCellValue(c));
  TFE_MonitoringBoolGaugeCellSet(c, false);
  CHECK(!TFE_MonitoringBoolGaugeCellValue(c));

  c = TFE_MonitoringGetCellBoolGauge1(g1, "on");
  CHECK(c == TFE_MonitoringGetCellBoolGauge1(g1, "on"));
  TFE_MonitoringBoolGaugeCellSet(c, true);
  CHECK(TFE_MonitoringBoolGaugeCellValue(c));
  CHECK(!TFE_MonitoringBoolGaugeCellValue(
      TFE_MonitoringGetCellBoolGauge1(g1, "off")));

  c = TFE_MonitoringGetCellBoolGauge2(g2, "a", "b");
  CHECK(c == TFE_MonitoringGetCellBoolGauge2(g2, "a", "b"));
  TFE_MonitoringBoolGaugeCellSet(c, true);
  CHECK(TFE_MonitoringBoolGaugeCellValue(c));
  CHECK(!TFE_MonitoringBoolGaugeCellValue(
      TFE_MonitoringGetCellBoolGauge2(g2, "b", "a")));
  TFE_MonitoringDeleteBoolGauge0(g0);
  TFE_MonitoringDeleteBoolGauge1(g1);
  TFE_MonitoringDeleteBoolGauge2(g2);
  TF_DeleteStatus(s);
}

TEST(string_gauges) {
  TF_Status* s = TF_NewStatus();
  TFE_MonitoringStringGauge0* g0 =
      TFE_MonitoringNewStringGauge0("/tfe/test/sg0", s, "d");
  TFE_MonitoringStringGauge1* g1;
  TFE_MonitoringStringGauge2* g2;
  TFE_MonitoringStringGauge3* g3;
  TFE_MonitoringStringGauge4* g4;
  TFE_MonitoringStringGaugeCell* c;
  CHECK_CODE(s, TF_OK);
  g1 = TFE_MonitoringNewStringGauge1("/tfe/test/sg1", s, "d", "a");
  CHECK_CODE(s, TF_OK);
  g2 = TFE_MonitoringNewStringGauge2("/tfe/test/sg2", s, "d", "a", "b");
  CHECK_CODE(s, TF_OK);
  g3 = TFE_MonitoringNewStringGauge3("/tfe/test/sg3", s, "d", "a", "b", "c");
  CHECK_CODE(s, TF_OK);
  g4 = TFE_MonitoringNewStringGauge4("/tfe/test/sg4", s, "d", "a", "b", "c",
                                     "e");
  CHECK_CODE(s, TF_OK);

  c = TFE_MonitoringGetCellStringGauge0(g0);
  CHECK(c != NULL && c == TFE_MonitoringGetCellStringGauge0(g0));
  check_string_cell(c, "");
  TFE_MonitoringStringGaugeCellSet(c, "hello");
  check_string_cell(c, "hello");
  TFE_MonitoringStringGaugeCellSet(c, "");
  check_string_cell(c, "");

  c = TFE_MonitoringGetCellStringGauge1(g1, "x");
  CHECK(c == TFE_MonitoringGetCellStringGauge1(g1, "x"));
  TFE_MonitoringStringGaugeCellSet(c, "one");
  check_string_cell(c, "one");
  check_string_cell(TFE_MonitoringGetCellStringGauge1(g1, "y"), "");

  c = TFE_MonitoringGetCellStringGauge2(g2, "x", "y");
  CHECK(c == TFE_MonitoringGetCellStringGauge2(g2, "x", "y"));
  TFE_MonitoringStringGaugeCellSet(c, "two");
  check_string_cell(c, "two");

  c = TFE_MonitoringGetCellStringGauge3(g3, "x", "y", "z");
  CHECK(c == TFE_MonitoringGetCellStringGauge3(g3, "x", "y", "z"));
  CHECK(c != TFE_MonitoringGetCellStringGauge3(g3, "x", "y", "w"));
  TFE_MonitoringStringGaugeCellSet(c, "three");
  check_string_cell(c, "three");

  c = TFE_MonitoringGetCellStringGauge4(g4, "x", "y", "z", "w");
  CHECK(c == TFE_MonitoringGetCellStringGauge4(g4, "x", "y", "z", "w"));
  CHECK(c != TFE_MonitoringGetCellStringGauge4(g4, "w", "y", "z", "x"));
  TFE_MonitoringStringGaugeCellSet(c, "four");
  check_string_cell(c, "four");

  TFE_MonitoringDeleteStringGauge0(g0);
  TFE_MonitoringDeleteStringGauge1(g1);
  TFE_MonitoringDeleteStringGauge2(g2);
  TFE_MonitoringDeleteStringGauge3(g3);
  TFE_MonitoringDeleteStringGauge4(g4);
  TF_DeleteStatus(s);
}

static int g_released;
static void count_release(void* data, size_t len) {
  (void)data;
  (void)len;
  g_released++;
}

TEST(string_value_replaces_buffer_contents) {
  TF_Status* s = TF_NewStatus();
  TFE_MonitoringStringGauge0* g =
      TFE_MonitoringNewStringGauge0("/tfe/test/sg_buf", s, "d");
  TFE_MonitoringStringGaugeCell* c = TFE_MonitoringGetCellStringGauge0(g);
  TF_Buffer* buf = TF_NewBuffer();
  static const char old[] = "old";
  int64_t live = TFE_LiveObjectCount(TFE_OBJ_BUFFER);
  /* The buffer's previous contents are released through its deallocator;
   * the new bytes belong to the buffer (TF_DeleteBuffer frees them). */
  buf->data = old;
  buf->length = 3;
  buf->data_deallocator = count_release;
  g_released = 0;
  TFE_MonitoringStringGaugeCellSet(c, "value");
  TFE_MonitoringStringGaugeCellValue(c, buf);
  CHECK_EQ_INT(g_released, 1);
  CHECK_EQ_SIZE(buf->length, 5);
  CHECK(memcmp(buf->data, "value", 5) == 0);
  /* Setting the gauge later does not change the copy. */
  TFE_MonitoringStringGaugeCellSet(c, "other");
  CHECK(memcmp(buf->data, "value", 5) == 0);
  TFE_MonitoringStringGaugeCellValue(c, buf);
  CHECK(memcmp(buf->data, "other", 5) == 0);
  TF_DeleteBuffer(buf);
  CHECK_EQ_INT(TFE_LiveObjectCount(TFE_OBJ_BUFFER), live - 1);
  TFE_MonitoringDeleteStringGauge0(g);
  TF_DeleteStatus(s);
}

/* ------------------------------------------------------------------------
 * Samplers. */

TEST(sampler_histogram_proto) {
  TF_Status* s = TF_NewStatus();
  TFE_MonitoringBuckets* b = TFE_MonitoringNewExponentialBuckets(1.0, 2.0, 3);
  TFE_MonitoringSampler0* sm;
  TFE_MonitoringSamplerCell* cell;
  histo h;
  CHECK(b != NULL);
  sm = TFE_MonitoringNewSampler0("/tfe/test/sampler0", b, s, "d");
  CHECK_CODE(s, TF_OK);
  /* The sampler keeps its own limits. */
  TFE_MonitoringDeleteBuckets(b);
  cell = TFE_MonitoringGetCellSampler0(sm);
  CHECK(cell != NULL && cell == TFE_MonitoringGetCellSampler0(sm));

  /* Empty: limits 1, 2, 4 and DBL_MAX, all counts zero, min starts at the
   * top limit and max at -DBL_MAX; zero scalars are not written. */
  sampler_value(cell, &h);
  CHECK_EQ_INT(h.nlimits, 4);
  CHECK_EQ_INT(h.ncounts, 4);
  CHECK(h.limits[0] == 1.0 && h.limits[1] == 2.0 && h.limits[2] == 4.0);
  CHECK(h.limits[3] == DBL_MAX);
  CHECK(h.counts[0] == 0 && h.counts[1] == 0 && h.counts[2] == 0 &&
        h.counts[3] == 0);
  CHECK(h.min == DBL_MAX);
  CHECK(h.max == -DBL_MAX);
  CHECK(!(h.fields_seen & (1 << 3)) && !(h.fields_seen & (1 << 4)) &&
        !(h.fields_seen & (1 << 5)));

  /* Bucket i counts limits[i-1] <= v < limits[i]: a value equal to a
   * limit goes to the next bucket. */
  TFE_MonitoringSamplerCellAdd(cell, 0.5);  /* bucket 0 */
  TFE_MonitoringSamplerCellAdd(cell, -3.0); /* bucket 0 */
  TFE_MonitoringSamplerCellAdd(cell, 1.0);  /* bucket 1 */
  TFE_MonitoringSamplerCellAdd(cell, 3.0);  /* bucket 2 */
  TFE_MonitoringSamplerCellAdd(cell, 4.0);  /* bucket 3 */
  TFE_MonitoringSamplerCellAdd(cell, 1e9);  /* bucket 3 */
  sampler_value(cell, &h);
  CHECK_EQ_INT(h.nlimits, 4);
  CHECK(h.counts[0] == 2 && h.counts[1] == 1 && h.counts[2] == 1 &&
        h.counts[3] == 2);
  CHECK(h.min == -3.0);
  CHECK(h.max == 1e9);
  CHECK(h.num == 6);
  CHECK(h.sum == 0.5 - 3.0 + 1.0 + 3.0 + 4.0 + 1e9);
  CHECK(h.sum_squares == 0.25 + 9.0 + 1.0 + 9.0 + 16.0 + 1e18);

  /* DBL_MAX itself and +inf stay in the last bucket. */
  TFE_MonitoringSamplerCellAdd(cell, DBL_MAX);
  sampler_value(cell, &h);
  CHECK(h.counts[3] == 3);
  CHECK(h.max == DBL_MAX);
  TFE_MonitoringDeleteSampler0(sm);
  TF_DeleteStatus(s);
}

TEST(sampler_label_cells) {
  TF_Status* s = TF_NewStatus();
  TFE_MonitoringBuckets* b = TFE_MonitoringNewExponentialBuckets(10.0, 10.0, 2);
  TFE_MonitoringSampler1* s1 =
      TFE_MonitoringNewSampler1("/tfe/test/sampler1", b, s, "d", "l");
  TFE_MonitoringSampler2* s2;
  TFE_MonitoringSamplerCell *x, *y;
  histo h;
  CHECK_CODE(s, TF_OK);
  s2 = TFE_MonitoringNewSampler2("/tfe/test/sampler2", b, s, "d", "l1", "l2");
  CHECK_CODE(s, TF_OK);
  TFE_MonitoringDeleteBuckets(b);

  x = TFE_MonitoringGetCellSampler1(s1, "x");
  y = TFE_MonitoringGetCellSampler1(s1, "y");
  CHECK(x != NULL && y != NULL && x != y);
  CHECK(TFE_MonitoringGetCellSampler1(s1, "x") == x);
  TFE_MonitoringSamplerCellAdd(x, 50.0);
  sampler_value(x, &h);
  CHECK_EQ_INT(h.nlimits, 3);
  CHECK(h.limits[0] == 10.0 && h.limits[1] == 100.0 && h.limits[2] == DBL_MAX);
  CHECK(h.counts[0] == 0 && h.counts[1] == 1 && h.counts[2] == 0);
  CHECK(h.num == 1 && h.min == 50.0 && h.max == 50.0);
  sampler_value(y, &h);
  CHECK(h.num == 0);

  x = TFE_MonitoringGetCellSampler2(s2, "a", "b");
  CHECK(x != NULL && x == TFE_MonitoringGetCellSampler2(s2, "a", "b"));
  CHECK(x != TFE_MonitoringGetCellSampler2(s2, "b", "a"));
  TFE_MonitoringSamplerCellAdd(x, 5.0);
  sampler_value(x, &h);
  CHECK(h.counts[0] == 1 && h.num == 1 && h.sum == 5.0);
  TFE_MonitoringDeleteSampler1(s1);
  TFE_MonitoringDeleteSampler2(s2);
  TF_DeleteStatus(s);
}

TEST(sampler_bad_buckets) {
  TF_Status* s = TF_NewStatus();
  TFE_MonitoringBuckets* b;
  TFE_MonitoringSampler0* sm;

  CHECK(TFE_MonitoringNewSampler0("/tfe/test/bad", NULL, s, "d") == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);

  b = TFE_MonitoringNewExponentialBuckets(1.0, 2.0, 0);
  CHECK(b != NULL); /* checked when a sampler uses them, as in TF */
  CHECK(TFE_MonitoringNewSampler0("/tfe/test/bad", b, s, "d") == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "bucket_count");
  TFE_MonitoringDeleteBuckets(b);

  /* Limits that do not increase. */
  b = TFE_MonitoringNewExponentialBuckets(1.0, 1.0, 3);
  CHECK(TFE_MonitoringNewSampler0("/tfe/test/bad", b, s, "d") == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_MonitoringDeleteBuckets(b);
  b = TFE_MonitoringNewExponentialBuckets(-1.0, 2.0, 3);
  CHECK(TFE_MonitoringNewSampler0("/tfe/test/bad", b, s, "d") == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_MonitoringDeleteBuckets(b);
  /* Limits overflowing to infinity. */
  b = TFE_MonitoringNewExponentialBuckets(1.0, 1e200, 3);
  CHECK(TFE_MonitoringNewSampler0("/tfe/test/bad", b, s, "d") == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_MonitoringDeleteBuckets(b);

  /* One bucket: any finite scale; a scale of DBL_MAX needs no extra
   * overflow bucket. */
  b = TFE_MonitoringNewExponentialBuckets(DBL_MAX, 1.0, 1);
  sm = TFE_MonitoringNewSampler0("/tfe/test/one", b, s, "d");
  CHECK_CODE(s, TF_OK);
  {
    histo h;
    TFE_MonitoringSamplerCell* c = TFE_MonitoringGetCellSampler0(sm);
    TFE_MonitoringSamplerCellAdd(c, 1.0);
    sampler_value(c, &h);
    CHECK_EQ_INT(h.nlimits, 1);
    CHECK(h.limits[0] == DBL_MAX && h.counts[0] == 1);
  }
  TFE_MonitoringDeleteSampler0(sm);
  TFE_MonitoringDeleteBuckets(b);
  TFE_MonitoringDeleteBuckets(NULL);
  TF_DeleteStatus(s);
}

/* ------------------------------------------------------------------------
 * Registry and arguments. */

TEST(duplicate_name_replaces_registration) {
  /* TF 2.21 logs a warning and lets the newer metric take the name; both
   * metrics stay usable. */
  TF_Status* s = TF_NewStatus();
  TFE_MonitoringCounter0* a =
      TFE_MonitoringNewCounter0("/tfe/test/dup", s, "first");
  TFE_MonitoringCounter0* b;
  TFE_MonitoringIntGauge0* g;
  CHECK_CODE(s, TF_OK);
  b = TFE_MonitoringNewCounter0("/tfe/test/dup", s, "second");
  CHECK_CODE(s, TF_OK);
  CHECK(b != NULL && b != a);
  /* Another kind under the same name as well. */
  g = TFE_MonitoringNewIntGauge0("/tfe/test/dup", s, "third");
  CHECK_CODE(s, TF_OK);
  CHECK(g != NULL);
  TFE_MonitoringCounterCellIncrementBy(TFE_MonitoringGetCellCounter0(a), 1);
  TFE_MonitoringCounterCellIncrementBy(TFE_MonitoringGetCellCounter0(b), 2);
  CHECK_EQ_INT(
      TFE_MonitoringCounterCellValue(TFE_MonitoringGetCellCounter0(a)), 1);
  CHECK_EQ_INT(
      TFE_MonitoringCounterCellValue(TFE_MonitoringGetCellCounter0(b)), 2);
  TFE_MonitoringDeleteCounter0(a);
  CHECK_EQ_INT(
      TFE_MonitoringCounterCellValue(TFE_MonitoringGetCellCounter0(b)), 2);
  TFE_MonitoringDeleteIntGauge0(g);
  TFE_MonitoringDeleteCounter0(b);
  /* The name is free again. */
  a = TFE_MonitoringNewCounter0("/tfe/test/dup", s, "again");
  CHECK_CODE(s, TF_OK);
  TFE_MonitoringDeleteCounter0(a);
  TF_DeleteStatus(s);
}

TEST(name_reusable_after_delete) {
  TF_Status* s = TF_NewStatus();
  int i;
  for (i = 0; i < 3; i++) {
    TFE_MonitoringCounter0* c =
        TFE_MonitoringNewCounter0("/tfe/test/reuse", s, "d");
    CHECK_CODE(s, TF_OK);
    /* A new metric starts from zero. */
    CHECK_EQ_INT(
        TFE_MonitoringCounterCellValue(TFE_MonitoringGetCellCounter0(c)), 0);
    TFE_MonitoringCounterCellIncrementBy(TFE_MonitoringGetCellCounter0(c), 4);
    TFE_MonitoringDeleteCounter0(c);
  }
  TF_DeleteStatus(s);
}

TEST(null_arguments) {
  TF_Status* s = TF_NewStatus();
  TFE_MonitoringBuckets* b = TFE_MonitoringNewExponentialBuckets(1, 2, 2);
  TFE_MonitoringCounter1* c1;
  TFE_MonitoringStringGauge4* g4;
  TF_Buffer* buf = TF_NewBuffer();

  /* NULL name, description or label names: INVALID_ARGUMENT, NULL. */
  CHECK(TFE_MonitoringNewCounter0(NULL, s, "d") == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_MonitoringNewCounter0("/tfe/test/n", s, NULL) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_MonitoringNewCounter1("/tfe/test/n", s, "d", NULL) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "label1");
  CHECK(TFE_MonitoringNewCounter2("/tfe/test/n", s, "d", "a", NULL) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "label2");
  CHECK(TFE_MonitoringNewIntGauge0(NULL, s, "d") == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_MonitoringNewIntGauge1("/tfe/test/n", s, "d", NULL) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_MonitoringNewIntGauge2("/tfe/test/n", s, "d", NULL, "b") == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_MonitoringNewStringGauge0(NULL, s, "d") == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_MonitoringNewStringGauge1("/tfe/test/n", s, "d", NULL) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_MonitoringNewStringGauge2("/tfe/test/n", s, "d", "a", NULL) ==
        NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_MonitoringNewStringGauge3("/tfe/test/n", s, "d", "a", "b", NULL) ==
        NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_MonitoringNewStringGauge4("/tfe/test/n", s, "d", "a", "b", "c",
                                      NULL) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "label4");
  CHECK(TFE_MonitoringNewBoolGauge0(NULL, s, "d") == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_MonitoringNewBoolGauge1("/tfe/test/n", s, "d", NULL) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_MonitoringNewBoolGauge2("/tfe/test/n", s, "d", "a", NULL) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_MonitoringNewSampler0(NULL, b, s, "d") == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_MonitoringNewSampler1("/tfe/test/n", b, s, "d", NULL) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_MonitoringNewSampler2("/tfe/test/n", b, s, "d", "a", NULL) ==
        NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);

  /* NULL status: nothing is created. */
  CHECK(TFE_MonitoringNewCounter0("/tfe/test/n", NULL, "d") == NULL);
  CHECK(TFE_MonitoringNewSampler0("/tfe/test/n", b, NULL, "d") == NULL);

  /* A failed New* leaves a previously OK status set to the error, and a
   * successful one resets an error status to OK. */
  c1 = TFE_MonitoringNewCounter1("/tfe/test/n", s, "d", "l");
  CHECK_CODE(s, TF_OK);
  /* NULL label values: no cell. */
  CHECK(TFE_MonitoringGetCellCounter1(c1, NULL) == NULL);
  g4 = TFE_MonitoringNewStringGauge4("/tfe/test/n4", s, "d", "a", "b", "c",
                                     "e");
  CHECK(TFE_MonitoringGetCellStringGauge4(g4, "a", "b", "c", NULL) == NULL);
  CHECK(TFE_MonitoringGetCellStringGauge4(g4, NULL, "b", "c", "d") == NULL);
  /* A NULL value leaves a string gauge unchanged. */
  TFE_MonitoringStringGaugeCellSet(
      TFE_MonitoringGetCellStringGauge4(g4, "a", "b", "c", "d"), "kept");
  TFE_MonitoringStringGaugeCellSet(
      TFE_MonitoringGetCellStringGauge4(g4, "a", "b", "c", "d"), NULL);
  check_string_cell(TFE_MonitoringGetCellStringGauge4(g4, "a", "b", "c", "d"),
                    "kept");
  TFE_MonitoringStringGaugeCellValue(
      TFE_MonitoringGetCellStringGauge4(g4, "a", "b", "c", "d"), NULL);
  TFE_MonitoringDeleteCounter1(c1);
  TFE_MonitoringDeleteStringGauge4(g4);

  /* NULL metrics: no cells. */
  CHECK(TFE_MonitoringGetCellCounter0(NULL) == NULL);
  CHECK(TFE_MonitoringGetCellCounter1(NULL, "a") == NULL);
  CHECK(TFE_MonitoringGetCellCounter2(NULL, "a", "b") == NULL);
  CHECK(TFE_MonitoringGetCellIntGauge0(NULL) == NULL);
  CHECK(TFE_MonitoringGetCellIntGauge1(NULL, "a") == NULL);
  CHECK(TFE_MonitoringGetCellIntGauge2(NULL, "a", "b") == NULL);
  CHECK(TFE_MonitoringGetCellStringGauge0(NULL) == NULL);
  CHECK(TFE_MonitoringGetCellStringGauge1(NULL, "a") == NULL);
  CHECK(TFE_MonitoringGetCellStringGauge2(NULL, "a", "b") == NULL);
  CHECK(TFE_MonitoringGetCellStringGauge3(NULL, "a", "b", "c") == NULL);
  CHECK(TFE_MonitoringGetCellStringGauge4(NULL, "a", "b", "c", "d") == NULL);
  CHECK(TFE_MonitoringGetCellBoolGauge0(NULL) == NULL);
  CHECK(TFE_MonitoringGetCellBoolGauge1(NULL, "a") == NULL);
  CHECK(TFE_MonitoringGetCellBoolGauge2(NULL, "a", "b") == NULL);
  CHECK(TFE_MonitoringGetCellSampler0(NULL) == NULL);
  CHECK(TFE_MonitoringGetCellSampler1(NULL, "a") == NULL);
  CHECK(TFE_MonitoringGetCellSampler2(NULL, "a", "b") == NULL);

  /* NULL cells: no effect, zero values, buffers untouched. */
  TFE_MonitoringCounterCellIncrementBy(NULL, 1);
  CHECK_EQ_INT(TFE_MonitoringCounterCellValue(NULL), 0);
  TFE_MonitoringIntGaugeCellSet(NULL, 1);
  CHECK_EQ_INT(TFE_MonitoringIntGaugeCellValue(NULL), 0);
  TFE_MonitoringBoolGaugeCellSet(NULL, true);
  CHECK(!TFE_MonitoringBoolGaugeCellValue(NULL));
  TFE_MonitoringStringGaugeCellSet(NULL, "x");
  TFE_MonitoringStringGaugeCellValue(NULL, buf);
  CHECK(buf->data == NULL && buf->length == 0);
  TFE_MonitoringSamplerCellAdd(NULL, 1.0);
  TFE_MonitoringSamplerCellValue(NULL, buf);
  CHECK(buf->data == NULL && buf->length == 0);

  /* Deleting NULL is a no-op. */
  TFE_MonitoringDeleteCounter0(NULL);
  TFE_MonitoringDeleteCounter1(NULL);
  TFE_MonitoringDeleteCounter2(NULL);
  TFE_MonitoringDeleteIntGauge0(NULL);
  TFE_MonitoringDeleteIntGauge1(NULL);
  TFE_MonitoringDeleteIntGauge2(NULL);
  TFE_MonitoringDeleteStringGauge0(NULL);
  TFE_MonitoringDeleteStringGauge1(NULL);
  TFE_MonitoringDeleteStringGauge2(NULL);
  TFE_MonitoringDeleteStringGauge3(NULL);
  TFE_MonitoringDeleteStringGauge4(NULL);
  TFE_MonitoringDeleteBoolGauge0(NULL);
  TFE_MonitoringDeleteBoolGauge1(NULL);
  TFE_MonitoringDeleteBoolGauge2(NULL);
  TFE_MonitoringDeleteSampler0(NULL);
  TFE_MonitoringDeleteSampler1(NULL);
  TFE_MonitoringDeleteSampler2(NULL);
  TFE_MonitoringDeleteBuckets(NULL);

  TFE_MonitoringDeleteBuckets(b);
  TF_DeleteBuffer(buf);
  TF_DeleteStatus(s);
}

TEST(allocation_failures) {
  /* Every allocation of creating a metric, a cell and reading values
   * fails in turn: the calls report RESOURCE_EXHAUSTED or return NULL /
   * leave buffers alone, and nothing leaks (ASan builds check). */
  TF_Status* s = TF_NewStatus();
  int n, completed = 0;
  for (n = 0; n < 40 && !completed; n++) {
    TFE_MonitoringBuckets* b;
    TFE_MonitoringSampler1* sm;
    TFE_MonitoringSamplerCell* cell;
    TFE_MonitoringStringGauge1* g;
    TFE_MonitoringStringGaugeCell* sc;
    TF_Buffer* buf = TF_NewBuffer();
    TFE_TestFailAllocationsAfter(n);
    b = TFE_MonitoringNewExponentialBuckets(1, 2, 4);
    sm = b ? TFE_MonitoringNewSampler1("/tfe/test/oom", b, s, "d", "l") : NULL;
    if (b != NULL && sm == NULL) CHECK_CODE(s, TF_RESOURCE_EXHAUSTED);
    cell = TFE_MonitoringGetCellSampler1(sm, "x");
    TFE_MonitoringSamplerCellAdd(cell, 2.0);
    TFE_MonitoringSamplerCellValue(cell, buf);
    g = TFE_MonitoringNewStringGauge1("/tfe/test/oom2", s, "d", "l");
    if (g == NULL) CHECK_CODE(s, TF_RESOURCE_EXHAUSTED);
    sc = TFE_MonitoringGetCellStringGauge1(g, "y");
    TFE_MonitoringStringGaugeCellSet(sc, "v");
    TFE_MonitoringStringGaugeCellValue(sc, buf);
    completed = b != NULL && sm != NULL && cell != NULL && g != NULL &&
                sc != NULL && buf->length == 1;
    TFE_TestFailAllocationsAfter(-1);
    TFE_MonitoringDeleteSampler1(sm);
    TFE_MonitoringDeleteStringGauge1(g);
    TFE_MonitoringDeleteBuckets(b);
    TF_DeleteBuffer(buf);
  }
  CHECK(completed);
  TF_DeleteStatus(s);
}

/* ------------------------------------------------------------------------
 * Concurrency (runs under ThreadSanitizer in CI). */

#define NTHREADS 4
#define NITERS 20000

typedef struct {
  TFE_MonitoringCounter1* counter;
  TFE_MonitoringSampler0* sampler;
  TFE_MonitoringStringGauge0* sgauge;
  TFE_MonitoringIntGauge0* igauge;
  int id;
} worker_arg;

static void* worker(void* p) {
  worker_arg* a = (worker_arg*)p;
  TFE_MonitoringCounterCell* shared =
      TFE_MonitoringGetCellCounter1(a->counter, "shared");
  TFE_MonitoringSamplerCell* sc = TFE_MonitoringGetCellSampler0(a->sampler);
  TFE_MonitoringStringGaugeCell* gc =
      TFE_MonitoringGetCellStringGauge0(a->sgauge);
  TFE_MonitoringIntGaugeCell* ic = TFE_MonitoringGetCellIntGauge0(a->igauge);
  char label[32];
  int i;
  for (i = 0; i < NITERS; i++) {
    TFE_MonitoringCounterCellIncrementBy(shared, 1);
    if (i % 100 == 0) {
      /* Cells created concurrently, and looked up again. */
      snprintf(label, sizeof(label), "t%d_%d", a->id, i / 100);
      TFE_MonitoringCounterCellIncrementBy(
          TFE_MonitoringGetCellCounter1(a->counter, label), 1);
      TFE_MonitoringCounterCellIncrementBy(
          TFE_MonitoringGetCellCounter1(a->counter, "shared"), 1);
      TFE_MonitoringStringGaugeCellSet(gc, a->id % 2 ? "odd" : "even");
      {
        TF_Buffer* buf = TF_NewBuffer();
        TFE_MonitoringStringGaugeCellValue(gc, buf);
        TFE_MonitoringSamplerCellValue(sc, buf);
        TF_DeleteBuffer(buf);
      }
    }
    TFE_MonitoringSamplerCellAdd(sc, (double)(i % 8));
    TFE_MonitoringIntGaugeCellSet(ic, i);
  }
  return NULL;
}

TEST(concurrent_updates_threads) {
  TF_Status* s = TF_NewStatus();
  TFE_MonitoringBuckets* b = TFE_MonitoringNewExponentialBuckets(1, 2, 3);
  worker_arg args[NTHREADS];
  pthread_t th[NTHREADS];
  TFE_MonitoringCounter1* counter =
      TFE_MonitoringNewCounter1("/tfe/test/threads/c", s, "d", "l");
  TFE_MonitoringSampler0* sampler =
      TFE_MonitoringNewSampler0("/tfe/test/threads/s", b, s, "d");
  TFE_MonitoringStringGauge0* sgauge =
      TFE_MonitoringNewStringGauge0("/tfe/test/threads/g", s, "d");
  TFE_MonitoringIntGauge0* igauge =
      TFE_MonitoringNewIntGauge0("/tfe/test/threads/i", s, "d");
  TFE_MonitoringStringGaugeCell* gc;
  histo h;
  char label[32];
  int i, j;
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < NTHREADS; i++) {
    args[i].counter = counter;
    args[i].sampler = sampler;
    args[i].sgauge = sgauge;
    args[i].igauge = igauge;
    args[i].id = i;
    CHECK(pthread_create(&th[i], NULL, worker, &args[i]) == 0);
  }
  for (i = 0; i < NTHREADS; i++) pthread_join(th[i], NULL);

  CHECK_EQ_INT(TFE_MonitoringCounterCellValue(
                   TFE_MonitoringGetCellCounter1(counter, "shared")),
               NTHREADS * (NITERS + NITERS / 100));
  for (i = 0; i < NTHREADS; i++) {
    for (j = 0; j < NITERS / 100; j++) {
      snprintf(label, sizeof(label), "t%d_%d", i, j);
      CHECK_EQ_INT(TFE_MonitoringCounterCellValue(
                       TFE_MonitoringGetCellCounter1(counter, label)),
                   1);
    }
  }
  /* Values 0..7 evenly: [<1] gets 0, [1,2) 1, [2,4) 2 and 3, the rest 4..7. */
  sampler_value(TFE_MonitoringGetCellSampler0(sampler), &h);
  CHECK(h.num == NTHREADS * NITERS);
  CHECK(h.counts[0] == NTHREADS * NITERS / 8);
  CHECK(h.counts[1] == NTHREADS * NITERS / 8);
  CHECK(h.counts[2] == NTHREADS * NITERS / 4);
  CHECK(h.counts[3] == NTHREADS * NITERS / 2);
  CHECK(h.min == 0.0 && h.max == 7.0);
  CHECK(h.sum == 3.5 * NTHREADS * NITERS);
  gc = TFE_MonitoringGetCellStringGauge0(sgauge);
  {
    TF_Buffer* buf = TF_NewBuffer();
    TFE_MonitoringStringGaugeCellValue(gc, buf);
    CHECK((buf->length == 3 && memcmp(buf->data, "odd", 3) == 0) ||
          (buf->length == 4 && memcmp(buf->data, "even", 4) == 0));
    TF_DeleteBuffer(buf);
  }
  CHECK_EQ_INT(TFE_MonitoringIntGaugeCellValue(
                   TFE_MonitoringGetCellIntGauge0(igauge)),
               NITERS - 1);
  TFE_MonitoringDeleteCounter1(counter);
  TFE_MonitoringDeleteSampler0(sampler);
  TFE_MonitoringDeleteStringGauge0(sgauge);
  TFE_MonitoringDeleteIntGauge0(igauge);
  TFE_MonitoringDeleteBuckets(b);
  TF_DeleteStatus(s);
}

typedef struct {
  int id;
  int failures;
} registry_arg;

static void* registry_worker(void* p) {
  registry_arg* a = (registry_arg*)p;
  TF_Status* s = TF_NewStatus();
  int i;
  for (i = 0; i < 200; i++) {
    /* Half the names are shared between threads. */
    char name[48];
    TFE_MonitoringBoolGauge1* g;
    snprintf(name, sizeof(name), "/tfe/test/threads/reg%d",
             i % 2 ? i % 7 : 100 + a->id);
    g = TFE_MonitoringNewBoolGauge1(name, s, "d", "l");
    if (g == NULL || TF_GetCode(s) != TF_OK) {
      a->failures++;
      continue;
    }
    TFE_MonitoringBoolGaugeCellSet(TFE_MonitoringGetCellBoolGauge1(g, "x"),
                                   true);
    if (!TFE_MonitoringBoolGaugeCellValue(
            TFE_MonitoringGetCellBoolGauge1(g, "x"))) {
      a->failures++;
    }
    TFE_MonitoringDeleteBoolGauge1(g);
  }
  TF_DeleteStatus(s);
  return NULL;
}

TEST(registry_threads) {
  registry_arg args[NTHREADS];
  pthread_t th[NTHREADS];
  int i;
  for (i = 0; i < NTHREADS; i++) {
    args[i].id = i;
    args[i].failures = 0;
    CHECK(pthread_create(&th[i], NULL, registry_worker, &args[i]) == 0);
  }
  for (i = 0; i < NTHREADS; i++) {
    pthread_join(th[i], NULL);
    CHECK_EQ_INT(args[i].failures, 0);
  }
}

TFE_TEST_MAIN
