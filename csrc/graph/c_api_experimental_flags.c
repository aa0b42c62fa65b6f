/* The process-wide switches of TensorFlow 2.21's c_api_experimental.h that
 * do not belong to a graph or a session: the XLA flag functions,
 * TF_InitMain and TF_PickUnusedPortOrDie.
 *
 * tfe has no XLA. The XLA functions keep the values they are given, with
 * TensorFlow's defaults and TensorFlow's return values, so that programs
 * which set and read them behave the same; nothing in tfe reads them.
 * Defaults (TensorFlow's): lazy compilation on, CPU global jit off,
 * auto-jit level 0 for both the single-GPU and the general case, minimum
 * cluster size 4, constant folding not disabled. As in TensorFlow, the
 * TF_XLA_FLAGS environment variable, read once at the first use, can set
 * them (--tf_xla_auto_jit, --tf_xla_min_cluster_size,
 * --tf_xla_cpu_global_jit, --tf_xla_enable_lazy_compilation,
 * --tf_xla_disable_constant_folding); other flags in it are ignored (TF
 * would refuse unknown ones, but tfe knows only these). */
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
static pthread_once_t g_env_once = PTHREAD_ONCE_INIT;
static tfe_xla_flags g_flags = {
    /*enable_lazy_compilation=*/1,
    /*cpu_global_jit=*/0,
    /*auto_jit_single_gpu=*/0,
    /*auto_jit_general=*/0,
    /*min_cluster_size=*/4,
    /*disable_constant_folding=*/0,
};

static void read_env_flags(void);

/* Takes the lock, after TF_XLA_FLAGS was applied once. */
static void lock_flags(void) {
  pthread_once(&g_env_once, read_env_flags);
  pthread_mutex_lock(&g_mu);
}

tfe_xla_flags tfe_xla_flags_get(void) {
  tfe_xla_flags f;
  lock_flags();
  f = g_flags;
  pthread_mutex_unlock(&g_mu);
  return f;
}

unsigned char TF_SetXlaEnableLazyCompilation(unsigned char enable) {
  unsigned char old;
  lock_flags();
  old = g_flags.enable_lazy_compilation;
  g_flags.enable_lazy_compilation = enable != 0;
  pthread_mutex_unlock(&g_mu);
  return old;
}

unsigned char TF_SetTfXlaCpuGlobalJit(unsigned char enable) {
  unsigned char old;
  lock_flags();
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

/* Applies a --tf_xla_auto_jit value (n bytes at v) to *f; 0 when it is
 * not one TensorFlow accepts (f unchanged). */
static int apply_auto_jit(const char* v, size_t n, tfe_xla_flags* f) {
  static const char kSingle[] = "single-gpu(";
  const size_t ns = sizeof kSingle - 1;
  int level;
  if (parse_level(v, n, &level)) {
    f->auto_jit_single_gpu = level;
    f->auto_jit_general = level;
    return 1;
  }
  if (n == 7 && memcmp(v, "fusible", 7) == 0) {
    f->auto_jit_single_gpu = 1;
    f->auto_jit_general = 1;
    return 1;
  }
  if (n > ns + 1 && memcmp(v, kSingle, ns) == 0 && v[n - 1] == ')' &&
      parse_level(v + ns, n - ns - 1, &level)) {
    f->auto_jit_single_gpu = level;
    return 1;
  }
  return 0;
}

void TF_SetXlaAutoJitMode(const char* mode) {
  int ok;
  if (mode == NULL) {
    TF_Log(TF_ERROR, "Invalid value for --tf_xla_auto_jit: (null)");
    return;
  }
  lock_flags();
  ok = apply_auto_jit(mode, strlen(mode), &g_flags);
  pthread_mutex_unlock(&g_mu);
  if (!ok) TF_Log(TF_ERROR, "Invalid value for --tf_xla_auto_jit: %s", mode);
}

/* A boolean flag value as TensorFlow's flag parser takes it. */
static int parse_bool(const char* v, size_t n, unsigned char* out) {
  if ((n == 4 && memcmp(v, "true", 4) == 0) || (n == 1 && v[0] == '1')) {
    *out = 1;
    return 1;
  }
  if ((n == 5 && memcmp(v, "false", 5) == 0) || (n == 1 && v[0] == '0')) {
    *out = 0;
    return 1;
  }
  return 0;
}

/* One "--name=value" (or "--name" for a boolean) of TF_XLA_FLAGS. */
static void apply_env_flag(const char* tok, size_t n, tfe_xla_flags* f) {
  const char* eq;
  size_t name_len;
  const char* v;
  size_t vn;
  unsigned char b;
  int i;
  while (n > 0 && *tok == '-') {
    tok++;
    n--;
  }
  eq = (const char*)memchr(tok, '=', n);
  name_len = eq != NULL ? (size_t)(eq - tok) : n;
  v = eq != NULL ? eq + 1 : "true";
  vn = eq != NULL ? n - name_len - 1 : 4;
#define IS(lit) (name_len == sizeof(lit) - 1 && memcmp(tok, lit, name_len) == 0)
  if (IS("tf_xla_auto_jit")) {
    if (eq == NULL || !apply_auto_jit(v, vn, f)) goto bad;
  } else if (IS("tf_xla_min_cluster_size")) {
    if (eq == NULL || !parse_level(v, vn, &i)) goto bad;
    f->min_cluster_size = i;
  } else if (IS("tf_xla_cpu_global_jit")) {
    if (!parse_bool(v, vn, &b)) goto bad;
    f->cpu_global_jit = b;
  } else if (IS("tf_xla_enable_lazy_compilation")) {
    if (!parse_bool(v, vn, &b)) goto bad;
    f->enable_lazy_compilation = b;
  } else if (IS("tf_xla_disable_constant_folding")) {
    if (!parse_bool(v, vn, &b)) goto bad;
    f->disable_constant_folding = b;
  }
#undef IS
  return;
bad:
  TF_Log(TF_ERROR, "TF_XLA_FLAGS: ignoring the invalid flag %.*s", (int)n,
         tok);
}

static void read_env_flags(void) {
  const char* env = getenv("TF_XLA_FLAGS");
  const char* p = env;
  if (env == NULL) return;
  pthread_mutex_lock(&g_mu);
  while (*p != '\0') {
    const char* start;
    while (*p == ' ' || *p == '\t' || *p == '\n') p++;
    start = p;
    while (*p != '\0' && *p != ' ' && *p != '\t' && *p != '\n') p++;
    if (p > start) apply_env_flag(start, (size_t)(p - start), &g_flags);
  }
  pthread_mutex_unlock(&g_mu);
}

unsigned char TF_GetXlaAutoJitEnabled(void) {
  tfe_xla_flags f = tfe_xla_flags_get();
  return (unsigned char)(f.auto_jit_single_gpu > 0 || f.auto_jit_general > 0);
}

void TF_SetXlaMinClusterSize(int size) {
  lock_flags();
  g_flags.min_cluster_size = size;
  pthread_mutex_unlock(&g_mu);
}

unsigned char TF_GetXlaConstantFoldingDisabled(void) {
  return tfe_xla_flags_get().disable_constant_folding;
}

void TF_SetXlaConstantFoldingDisabled(unsigned char should_enable) {
  lock_flags();
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
