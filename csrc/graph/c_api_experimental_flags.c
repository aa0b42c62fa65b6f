/* The process-wide switches of TensorFlow 2.21's c_api_experimental.h that
 * do not belong to a graph or a session: the XLA flag functions,
 * TF_InitMain and TF_PickUnusedPortOrDie.
 *
 * tfe has no XLA. The XLA functions keep the values they are given, with
 * TensorFlow's defaults and TensorFlow's return values, so that programs
 * which set and read them behave the same; nothing in tfe reads them.
 * Defaults (TensorFlow's, before any TF_XLA_FLAGS): lazy compilation on,
 * CPU global jit off, auto-jit level 0 for both the single-GPU and the
 * general case, minimum cluster size 4, constant folding not disabled. */
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "graph/xla_flags.h"
#include "tensorflow/c/c_api_experimental.h"
#include "tensorflow/c/logging.h"

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static tfe_xla_flags g_flags = {
    /*enable_lazy_compilation=*/1,
    /*cpu_global_jit=*/0,
    /*auto_jit_single_gpu=*/0,
    /*auto_jit_general=*/0,
    /*min_cluster_size=*/4,
    /*disable_constant_folding=*/0,
};

tfe_xla_flags tfe_xla_flags_get(void) {
  tfe_xla_flags f;
  pthread_mutex_lock(&g_mu);
  f = g_flags;
  pthread_mutex_unlock(&g_mu);
  return f;
}

unsigned char TF_SetXlaEnableLazyCompilation(unsigned char enable) {
  unsigned char old;
  pthread_mutex_lock(&g_mu);
  old = g_flags.enable_lazy_compilation;
  g_flags.enable_lazy_compilation = enable != 0;
  pthread_mutex_unlock(&g_mu);
  return old;
}

unsigned char TF_SetTfXlaCpuGlobalJit(unsigned char enable) {
  unsigned char old;
  pthread_mutex_lock(&g_mu);
  old = g_flags.cpu_global_jit;
  g_flags.cpu_global_jit = enable != 0;
  pthread_mutex_unlock(&g_mu);
  return old;
}

/* A whole decimal int32 (optional sign), as absl::SimpleAtoi accepts it
 * (surrounding blanks allowed). */
static int parse_level(const char* s, size_t n, int* out) {
  char buf[32];
  char* end;
  long v;
  if (n == 0 || n >= sizeof buf) return 0;
  memcpy(buf, s, n);
  buf[n] = '\0';
  errno = 0;
  v = strtol(buf, &end, 10);
  if (end == buf || errno != 0 || v < -2147483647L - 1 || v > 2147483647L) {
    return 0;
  }
  while (*end == ' ' || *end == '\t' || *end == '\n') end++;
  if (*end != '\0') return 0;
  *out = (int)v;
  return 1;
}

void TF_SetXlaAutoJitMode(const char* mode) {
  static const char kSingle[] = "single-gpu(";
  const size_t ns = sizeof kSingle - 1;
  size_t n;
  int level;
  if (mode == NULL) {
    TF_Log(TF_ERROR, "Invalid value for --tf_xla_auto_jit: (null)");
    return;
  }
  n = strlen(mode);
  if (parse_level(mode, n, &level)) {
    pthread_mutex_lock(&g_mu);
    g_flags.auto_jit_single_gpu = level;
    g_flags.auto_jit_general = level;
    pthread_mutex_unlock(&g_mu);
    return;
  }
  if (strcmp(mode, "fusible") == 0) {
    pthread_mutex_lock(&g_mu);
    g_flags.auto_jit_single_gpu = 1;
    g_flags.auto_jit_general = 1;
    pthread_mutex_unlock(&g_mu);
    return;
  }
  if (n > ns + 1 && strncmp(mode, kSingle, ns) == 0 && mode[n - 1] == ')' &&
      parse_level(mode + ns, n - ns - 1, &level)) {
    pthread_mutex_lock(&g_mu);
    g_flags.auto_jit_single_gpu = level;
    pthread_mutex_unlock(&g_mu);
    return;
  }
  TF_Log(TF_ERROR, "Invalid value for --tf_xla_auto_jit: %s", mode);
}

unsigned char TF_GetXlaAutoJitEnabled(void) {
  tfe_xla_flags f = tfe_xla_flags_get();
  return (unsigned char)(f.auto_jit_single_gpu > 0 || f.auto_jit_general > 0);
}

void TF_SetXlaMinClusterSize(int size) {
  pthread_mutex_lock(&g_mu);
  g_flags.min_cluster_size = size;
  pthread_mutex_unlock(&g_mu);
}

unsigned char TF_GetXlaConstantFoldingDisabled(void) {
  return tfe_xla_flags_get().disable_constant_folding;
}

void TF_SetXlaConstantFoldingDisabled(unsigned char should_enable) {
  pthread_mutex_lock(&g_mu);
  g_flags.disable_constant_folding = should_enable != 0;
  pthread_mutex_unlock(&g_mu);
}

/* ------------------------------------------------------------------------
 * TF_InitMain, TF_PickUnusedPortOrDie. */

void TF_InitMain(const char* usage, int* argc, char*** argv) {
  /* TensorFlow's open-source build does nothing here either: flags are
   * parsed by the program, not by the runtime. */
  (void)usage;
  (void)argc;
  (void)argv;
}

/* Ports handed out so far: the same port is not returned twice. */
#define MAX_PICKED 1024
static int g_picked[MAX_PICKED];
static int g_num_picked;

static int already_picked(int port) {
  int i;
  for (i = 0; i < g_num_picked; i++) {
    if (g_picked[i] == port) return 1;
  }
  return 0;
}

/* Binds a socket of `type` to 127.0.0.1:port (0: any free port) and
 * returns the bound port, or -1. */
static int bind_port(int type, int port) {
  struct sockaddr_in addr;
  socklen_t len = sizeof addr;
  int fd = socket(AF_INET, type, 0), got = -1;
  if (fd < 0) return -1;
  memset(&addr, 0, sizeof addr);
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons((uint16_t)port);
  if (bind(fd, (struct sockaddr*)&addr, sizeof addr) == 0 &&
      getsockname(fd, (struct sockaddr*)&addr, &len) == 0) {
    got = ntohs(addr.sin_port);
  }
  close(fd);
  return got;
}

int TF_PickUnusedPortOrDie(void) {
  int attempt, port = -1;
  pthread_mutex_lock(&g_mu);
  for (attempt = 0; attempt < 64 && port < 0; attempt++) {
    int p = bind_port(SOCK_STREAM, 0);
    if (p <= 0) break; /* no TCP socket can be bound at all */
    /* Free for TCP; make sure UDP can have it too, as TensorFlow does. */
    if (already_picked(p) || bind_port(SOCK_DGRAM, p) != p) continue;
    port = p;
  }
  if (port > 0 && g_num_picked < MAX_PICKED) g_picked[g_num_picked++] = port;
  pthread_mutex_unlock(&g_mu);
  if (port < 0) {
    TF_Log(TF_ERROR,
           "TF_PickUnusedPortOrDie: no unused port could be found on "
           "127.0.0.1; returning -1 (TensorFlow would abort)");
  }
  return port;
}
