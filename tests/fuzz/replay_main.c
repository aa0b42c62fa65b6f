/* A main() for running a fuzz target without libFuzzer: every file named
 * on the command line, and every regular file inside a named directory, is
 * passed once to LLVMFuzzerTestOneInput. ctest uses it to replay each
 * target's committed corpus (tests/fuzz/corpus/<target>/) and the inputs
 * that once crashed it (tests/fuzz/crashes/<target>/) with any compiler,
 * in the plain and the sanitizer builds. A missing path is skipped. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static int g_files;

static void run_file(const char* path) {
  FILE* f = fopen(path, "rb");
  uint8_t* buf;
  long n;
  if (f == NULL) return;
  if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 ||
      fseek(f, 0, SEEK_SET) != 0) {
    fclose(f);
    return;
  }
  /* An exact-size copy, so that ASan sees reads past the input's end. */
  buf = (uint8_t*)malloc(n > 0 ? (size_t)n : 1);
  if (buf == NULL || fread(buf, 1, (size_t)n, f) != (size_t)n) {
    fprintf(stderr, "cannot read %s\n", path);
    exit(2);
  }
  fclose(f);
  LLVMFuzzerTestOneInput(buf, (size_t)n);
  free(buf);
  g_files++;
}

static void run_path(const char* path) {
  struct stat st;
  DIR* d;
  struct dirent* e;
  if (stat(path, &st) != 0) return;
  if (!S_ISDIR(st.st_mode)) {
    run_file(path);
    return;
  }
  d = opendir(path);
  if (d == NULL) return;
  while ((e = readdir(d)) != NULL) {
    char full[4096];
    if (e->d_name[0] == '.') continue;
    snprintf(full, sizeof full, "%s/%s", path, e->d_name);
    if (stat(full, &st) == 0 && S_ISREG(st.st_mode)) run_file(full);
  }
  closedir(d);
}

int main(int argc, char** argv) {
  int i;
  for (i = 1; i < argc; i++) run_path(argv[i]);
  printf("%s: %d inputs ran\n", argv[0], g_files);
  return 0;
}
