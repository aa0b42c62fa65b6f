/* Fuzz harness for the filesystem layer's path handling: URI splitting,
 * lexical cleaning and joining (csrc/fs/uri.c) and glob matching through
 * the ram:// filesystem (csrc/fs/glob.c). It looks for crashes, leaks and
 * sanitizer reports, and checks invariants of cleaning: the result is
 * never empty, has no "//", no "." component, no trailing '/', stays
 * rooted iff the input was, and cleaning it again changes nothing.
 *
 * Not built by default. With libFuzzer (clang), against the static core:
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Iinclude -Icsrc \
 *     tests/fuzz/fuzz_fs_path.c build/libtfe.a -lpthread -lm -ldl \
 *     -o fuzz_fs_path && ./fuzz_fs_path
 * Standalone (any C compiler), running the built-in seeds and any files
 * named on the command line once each:
 *   cc -g -DTFE_FUZZ_STANDALONE -fsanitize=address,undefined -Iinclude \
 *     -Icsrc tests/fuzz/fuzz_fs_path.c build/libtfe.a -lpthread -lm -ldl \
 *     -o fuzz_fs_path_seeds && ./fuzz_fs_path_seeds [files...]
 *
 * Input: the bytes up to the first '\n' are a path or URI; the rest (if
 * any) is a glob pattern matched below a small ram:// tree. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "fs/uri.h"
#include "tensorflow/c/env.h"
#include "tfe/filesystem.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static void fail(const char* what, const char* in, const char* out) {
  fprintf(stderr, "invariant broken (%s): in='%s' out='%s'\n", what, in,
          out ? out : "(null)");
  abort();
}

static void check_clean(const char* path) {
  size_t n = strlen(path);
  char* c = tfe_path_clean(path, n);
  char* again;
  size_t m;
  if (c == NULL) return; /* out of memory */
  m = strlen(c);
  if (m == 0) fail("empty", path, c);
  if (strstr(c, "//") != NULL) fail("double slash", path, c);
  if (m > 1 && c[m - 1] == '/') fail("trailing slash", path, c);
  if ((n > 0 && path[0] == '/') != (c[0] == '/')) fail("rootedness", path, c);
  if (strcmp(c, ".") != 0 &&
      (strncmp(c, "./", 2) == 0 || strstr(c, "/./") != NULL ||
       (m >= 2 && strcmp(c + m - 2, "/.") == 0))) {
    fail("dot component", path, c);
  }
  again = tfe_path_clean(c, m);
  if (again != NULL && strcmp(again, c) != 0) fail("idempotence", c, again);
  tfe_free(again);
  tfe_free(c);
}

static void make_tree(void) {
  static int done;
  static const char* files[] = {"ram://fz/a/1.txt", "ram://fz/a/b/2.txt",
                                "ram://fz/[x]/y", "ram://fz/*star"};
  size_t i;
  if (done) return;
  done = 1;
  for (i = 0; i < sizeof files / sizeof files[0]; i++) {
    TF_WritableFileHandle* h = NULL;
    TF_NewWritableFile(files[i], &h, NULL);
    TF_CloseWritableFile(h, NULL);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  char* text = (char*)malloc(size + 1);
  char* nl;
  tfe_uri u;
  if (text == NULL) return 0;
  memcpy(text, data, size);
  text[size] = '\0'; /* embedded NULs just shorten the input */
  nl = strchr(text, '\n');
  if (nl != NULL) *nl = '\0';

  tfe_uri_parse(text, &u);
  if (u.prefix_len > strlen(text)) fail("prefix", text, NULL);
  (void)tfe_scheme_is_valid(text);
  check_clean(text);
  check_clean(u.path);
  {
    char* j = tfe_uri_join(text, "leaf");
    tfe_free(j);
  }
  (void)tfe_path_basename(text);

  if (nl != NULL) {
    char pattern[4200];
    TF_Status* s = TF_NewStatus();
    make_tree();
    if (strlen(nl + 1) < 4096) {
      snprintf(pattern, sizeof pattern, "ram://fz/%s", nl + 1);
      TF_StringStreamDone(TFE_GetMatchingPaths(pattern, s));
    }
    TF_DeleteStatus(s);
  }
  free(text);
  return 0;
}

#ifdef TFE_FUZZ_STANDALONE
static const char* const kSeeds[] = {
    "/a/b/../c", "rel/./x/..", "", "//", "/..", "../../a", "gs://b/x/../y",
    "file:///", "ram://h", "my-fs://h/p", "a/b\n*/*.txt", "x\n[", "x\n[!",
    "x\n\\", "x\n*[x]*/?", "x\n**/*", "x\n\\*star", "x\n[a-]*/[!-z]/*",
};

int main(int argc, char** argv) {
  size_t i;
  int k;
  for (i = 0; i < sizeof kSeeds / sizeof kSeeds[0]; i++) {
    LLVMFuzzerTestOneInput((const uint8_t*)kSeeds[i], strlen(kSeeds[i]));
  }
  for (k = 1; k < argc; k++) {
    FILE* f = fopen(argv[k], "rb");
    static uint8_t buf[1 << 16];
    size_t n;
    if (f == NULL) continue;
    n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    LLVMFuzzerTestOneInput(buf, n);
  }
  printf("fuzz_fs_path: %zu seeds and %d files ran\n",
         sizeof kSeeds / sizeof kSeeds[0], argc - 1);
  return 0;
}
#endif
