/* The process-wide functions of c_api_experimental.h: the XLA flags (tfe
 * records them with TensorFlow's defaults and return values, and reads
 * TF_XLA_FLAGS), TF_InitMain,
 * TF_PickUnusedPortOrDie and TFE_GetServerDef (text ServerDef to binary,
 * byte for byte as protobuf encodes it). White-box: reads the recorded XLA
 * flags through csrc/graph/xla_flags.h. */
#define _GNU_SOURCE 1
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "graph/xla_flags.h"
#include "tensorflow/c/c_api_experimental.h"
#include "tfe_test.h"

TEST(xla_flags_start_at_tensorflows_defaults) {
  tfe_xla_flags f;
  unsetenv("TF_XLA_FLAGS"); /* read at the first use, just below */
  f = tfe_xla_flags_get();
  CHECK_EQ_INT(f.enable_lazy_compilation, 1);
  CHECK_EQ_INT(f.cpu_global_jit, 0);
  CHECK_EQ_INT(f.auto_jit_single_gpu, 0);
  CHECK_EQ_INT(f.auto_jit_general, 0);
  CHECK_EQ_INT(f.min_cluster_size, 4);
  CHECK_EQ_INT(f.disable_constant_folding, 0);
  CHECK_EQ_INT(TF_GetXlaAutoJitEnabled(), 0);
  CHECK_EQ_INT(TF_GetXlaConstantFoldingDisabled(), 0);
}

TEST(setters_return_the_previous_value) {
  CHECK_EQ_INT(TF_SetXlaEnableLazyCompilation(0), 1);
  CHECK_EQ_INT(TF_SetXlaEnableLazyCompilation(7), 0);
  CHECK_EQ_INT(TF_SetXlaEnableLazyCompilation(1), 1); /* stored as 1 */
  CHECK_EQ_INT(TF_SetTfXlaCpuGlobalJit(1), 0);
  CHECK_EQ_INT(TF_SetTfXlaCpuGlobalJit(0), 1);
  TF_SetXlaMinClusterSize(1);
  CHECK_EQ_INT(tfe_xla_flags_get().min_cluster_size, 1);
  TF_SetXlaMinClusterSize(-3);
  CHECK_EQ_INT(tfe_xla_flags_get().min_cluster_size, -3);
  TF_SetXlaConstantFoldingDisabled(1);
  CHECK_EQ_INT(TF_GetXlaConstantFoldingDisabled(), 1);
  TF_SetXlaConstantFoldingDisabled(0);
  CHECK_EQ_INT(TF_GetXlaConstantFoldingDisabled(), 0);
}

TEST(auto_jit_mode_strings) {
  tfe_xla_flags f;
  TF_SetXlaAutoJitMode("2");
  f = tfe_xla_flags_get();
  CHECK_EQ_INT(f.auto_jit_single_gpu, 2);
  CHECK_EQ_INT(f.auto_jit_general, 2);
  CHECK_EQ_INT(TF_GetXlaAutoJitEnabled(), 1);
  TF_SetXlaAutoJitMode("-1");
  CHECK_EQ_INT(TF_GetXlaAutoJitEnabled(), 0);
  TF_SetXlaAutoJitMode("single-gpu(1)");
  f = tfe_xla_flags_get();
  CHECK_EQ_INT(f.auto_jit_single_gpu, 1);
  CHECK_EQ_INT(f.auto_jit_general, -1);
  CHECK_EQ_INT(TF_GetXlaAutoJitEnabled(), 1);
  TF_SetXlaAutoJitMode("0");
  CHECK_EQ_INT(TF_GetXlaAutoJitEnabled(), 0);
  TF_SetXlaAutoJitMode("fusible");
  f = tfe_xla_flags_get();
  CHECK_EQ_INT(f.auto_jit_single_gpu, 1);
  CHECK_EQ_INT(f.auto_jit_general, 1);
  /* Invalid values change nothing (an error is logged). */
  TF_SetXlaAutoJitMode("on");
  TF_SetXlaAutoJitMode("single-gpu(x)");
  TF_SetXlaAutoJitMode("single-gpu(2");
  TF_SetXlaAutoJitMode("");
  TF_SetXlaAutoJitMode(NULL);
  f = tfe_xla_flags_get();
  CHECK_EQ_INT(f.auto_jit_single_gpu, 1);
  CHECK_EQ_INT(f.auto_jit_general, 1);
}

/* TF_XLA_FLAGS is read once per process, at the first use: the checks
 * run in a fresh copy of this program started with the variable set. */
TEST(xla_flags_from_the_environment) {
  if (getenv("TFE_TEST_XLA_ENV_CHILD") == NULL) {
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    pid_t pid;
    int status = 0;
    CHECK(n > 0);
    exe[n] = '\0';
    setenv("TFE_TEST_XLA_ENV_CHILD", "1", 1);
    setenv("TF_XLA_FLAGS",
           " --tf_xla_auto_jit=single-gpu(2)  --tf_xla_min_cluster_size=7 "
           "--tf_xla_cpu_global_jit --tf_xla_enable_lazy_compilation=false "
           "--tf_xla_disable_constant_folding=1 --xla_some_other_flag=3 "
           "--tf_xla_min_cluster_size=x",
           1);
    pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
      execl(exe, exe, "xla_flags_from_the_environment", (char*)NULL);
      _exit(127);
    }
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status));
    CHECK_EQ_INT(WEXITSTATUS(status), 0);
    return;
  }
  {
    tfe_xla_flags f = tfe_xla_flags_get();
    CHECK_EQ_INT(f.auto_jit_single_gpu, 2);
    CHECK_EQ_INT(f.auto_jit_general, 0);
    CHECK_EQ_INT(f.min_cluster_size, 7); /* the invalid later value ignored */
    CHECK_EQ_INT(f.cpu_global_jit, 1);
    CHECK_EQ_INT(f.enable_lazy_compilation, 0);
    CHECK_EQ_INT(f.disable_constant_folding, 1);
    CHECK_EQ_INT(TF_GetXlaAutoJitEnabled(), 1);
    CHECK_EQ_INT(TF_GetXlaConstantFoldingDisabled(), 1);
    CHECK_EQ_INT(TF_SetXlaEnableLazyCompilation(1), 0);
  }
}

TEST(init_main_leaves_arguments_alone) {
  char a0[] = "prog", a1[] = "--flag=1";
  char* args[] = {a0, a1, NULL};
  char** argv = args;
  int argc = 2;
  TF_InitMain("usage", &argc, &argv);
  CHECK_EQ_INT(argc, 2);
  CHECK(argv == args);
  CHECK_STR_EQ(argv[1], "--flag=1");
  TF_InitMain(NULL, NULL, NULL);
}

TEST(picked_ports_are_free_and_distinct) {
  int ports[8], i, j;
  for (i = 0; i < 8; i++) {
    ports[i] = TF_PickUnusedPortOrDie();
    CHECK(ports[i] > 0 && ports[i] < 65536);
    for (j = 0; j < i; j++) CHECK(ports[i] != ports[j]);
  }
  /* The last one can be bound right away. */
  {
    struct sockaddr_in addr;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    CHECK(fd >= 0);
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons((uint16_t)ports[7]);
    CHECK(bind(fd, (struct sockaddr*)&addr, sizeof addr) == 0);
    close(fd);
  }
}

/* ---- TFE_GetServerDef ------------------------------------------------- */

static const char kExample[] =
    "cluster {\n"
    "  job {\n"
    "    name: \"worker\"\n"
    "    tasks {\n"
    "      key: 0\n"
    "      value: \"tpuserver:0\"\n"
    "    }\n"
    "    tasks {\n"
    "      key: 1\n"
    "      value: \"localhost:1\"\n"
    "    }\n"
    "  }\n"
    "}\n"
    "job_name: \"worker\"\n"
    "task_index: 1\n"
    "protocol: \"grpc\"\n";

/* protobuf's encoding of kExample, worked out by hand:
 *   ServerDef.cluster (1)  ClusterDef.job (1)  JobDef.name (1), tasks (2)
 *   map entries {key 1, value 2}; job_name 2, task_index 3, protocol 5. */
static const unsigned char kExampleBytes[] =
    "\x0a\x2c"                         /* cluster, 44 bytes */
    "\x0a\x2a"                         /*   job, 42 bytes */
    "\x0a\x06" "worker"                /*     name */
    "\x12\x0f" "\x08\x00\x12\x0b" "tpuserver:0" /* tasks {0: ...} */
    "\x12\x0f" "\x08\x01\x12\x0b" "localhost:1" /* tasks {1: ...} */
    "\x12\x06" "worker"                /* job_name */
    "\x18\x01"                         /* task_index */
    "\x2a\x04" "grpc";                 /* protocol */

static void check_bytes(const char* text, const unsigned char* want,
                        size_t n) {
  TF_Status* s = TF_NewStatus();
  TF_Buffer* b = TFE_GetServerDef(text, s);
  CHECK_CODE(s, TF_OK);
  CHECK(b != NULL);
  CHECK_EQ_SIZE(b->length, n);
  if (n) CHECK(memcmp(b->data, want, n) == 0);
  TF_DeleteBuffer(b);
  TF_DeleteStatus(s);
}

TEST(server_def_example_encodes_like_protobuf) {
  check_bytes(kExample, kExampleBytes, sizeof kExampleBytes - 1);
}

TEST(server_def_text_format_variants_give_the_same_bytes) {
  /* Fields in another order, tasks out of key order, '<>' delimiters,
   * comments, separators, single quotes, split strings and escapes. */
  check_bytes(
      "# a comment\n"
      "protocol: 'gr' \"pc\"; task_index: 0x1,\n"
      "job_name: \"wor\\x6ber\"\n"
      "cluster: < job { tasks < key: 1 value: \"localhost:1\" >\n"
      "                 name: \"worker\"\n"
      "                 tasks { value: 'tpuserver:0' } } >\n",
      kExampleBytes, sizeof kExampleBytes - 1);
}

TEST(server_def_scalars_and_edge_cases) {
  /* Empty text: an empty ServerDef. Zero values are not written. */
  check_bytes("", (const unsigned char*)"", 0);
  check_bytes("task_index: 0 job_name: \"\"", (const unsigned char*)"", 0);
  /* An empty cluster is still present. */
  check_bytes("cluster {}", (const unsigned char*)"\x0a\x00", 2);
  /* port 6, replica 8; a negative int32 takes ten bytes. */
  check_bytes("port: 2222 replica: -1",
              (const unsigned char*)"\x30\xae\x11"
                                    "\x40\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01",
              14);
  /* A repeated map key keeps the last value. */
  check_bytes("cluster { job { tasks { key: 3 value: \"a\" } "
              "tasks { key: 3 value: \"b\" } } }",
              (const unsigned char*)"\x0a\x09\x0a\x07\x12\x05\x08\x03\x12\x01"
                                    "b",
              11);
}

TEST(server_def_errors) {
  static const char* const bad[] = {
      "cluster {\n  job {\n    name: \"worker\"", /* TF's own example */
      "job_name: worker",                         /* unquoted string */
      "job_name: \"a\" job_name: \"b\"",          /* singular twice */
      "task_index: 1.5",
      "task_index: 4294967296",
      "no_such_field: 1",
      "cluster { job { name: \"x\" } } cluster { }",
      "cluster { job { tasks { key: 1 key: 2 } } }",
      "protocol: \"unterminated",
  };
  TF_Status* s = TF_NewStatus();
  size_t i;
  for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    CHECK(TFE_GetServerDef(bad[i], s) == NULL);
    CHECK_CODE(s, TF_INTERNAL);
    CHECK_STR_CONTAINS(TF_Message(s), "Invalid text proto for ServerDef: ");
    CHECK_STR_CONTAINS(TF_Message(s), bad[i]);
  }
  CHECK(TFE_GetServerDef("default_session_config { }", s) == NULL);
  CHECK_CODE(s, TF_UNIMPLEMENTED);
  CHECK_STR_CONTAINS(TF_Message(s), "default_session_config");
  CHECK(TFE_GetServerDef("job_name: \"w\" cluster_device_filters {}", s) ==
        NULL);
  CHECK_CODE(s, TF_UNIMPLEMENTED);
  CHECK(TFE_GetServerDef(NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
