/* Fuzz harness for the op-definition grammar (csrc/ops/op_grammar.c) and
 * registration checks (csrc/ops/op_registry.c). It looks for crashes,
 * leaks and sanitizer reports, and checks one invariant: a parsed
 * definition rendered back to specs parses to the same specs.
 *
 * Not built by default. With libFuzzer (clang), against the static core:
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Iinclude -Icsrc \
 *     tests/fuzz/fuzz_op_grammar.c build/libtfe.a -lpthread -lm -ldl \
 *     -o fuzz_op_grammar && ./fuzz_op_grammar
 * Standalone (any C compiler), running the built-in seeds and any files
 * named on the command line once each:
 *   cc -g -DTFE_FUZZ_STANDALONE -fsanitize=address,undefined -Iinclude \
 *     -Icsrc tests/fuzz/fuzz_op_grammar.c build/libtfe.a -lpthread -lm -ldl \
 *     -o fuzz_op_grammar_seeds && ./fuzz_op_grammar_seeds [files...]
 *
 * Input format: the first byte holds flags (bit 0: also register the
 * definition; bits 1-3: which default-value kind to feed the raw text to);
 * the rest is split at '\n' into spec lines, each routed by its first
 * byte: 'i' input, 'o' output, anything else attr (that byte is dropped). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "ops/attr_value.h"
#include "ops/op_registry.h"
#include "ops/ops_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

/* Registering keeps definitions forever; cap it so long runs stay small. */
static int g_registrations;

static void add_lines(tfe_op_def* d, const char* text, TF_Status* s) {
  const char* p = text;
  while (*p) {
    const char* nl = strchr(p, '\n');
    size_t n = nl ? (size_t)(nl - p) : strlen(p);
    char* line = (char*)malloc(n + 1);
    if (line == NULL) return;
    memcpy(line, p, n);
    line[n] = '\0';
    if (n > 0) {
      if (line[0] == 'i') {
        tfe_op_def_add_input(d, line + 1, s);
      } else if (line[0] == 'o') {
        tfe_op_def_add_output(d, line + 1, s);
      } else {
        tfe_op_def_add_attr(d, line + 1, s);
      }
    }
    free(line);
    if (nl == NULL) break;
    p = nl + 1;
  }
}

/* Parses the "in: / out: / attr:" lines of tfe_op_def_to_specs. */
static void add_rendered(tfe_op_def* d, char* text, TF_Status* s) {
  char* p = text;
  while (*p) {
    char* nl = strchr(p, '\n');
    if (nl == NULL) abort(); /* every rendered line ends with '\n' */
    *nl = '\0';
    if (strncmp(p, "in: ", 4) == 0) {
      if (!tfe_op_def_add_input(d, p + 4, s)) abort();
    } else if (strncmp(p, "out: ", 5) == 0) {
      if (!tfe_op_def_add_output(d, p + 5, s)) abort();
    } else if (strncmp(p, "attr: ", 6) == 0) {
      if (!tfe_op_def_add_attr(d, p + 6, s)) abort();
    }
    *nl = '\n';
    p = nl + 1;
  }
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const TF_AttrType kinds[8] = {
      TF_ATTR_STRING, TF_ATTR_INT,    TF_ATTR_FLOAT, TF_ATTR_BOOL,
      TF_ATTR_TYPE,   TF_ATTR_SHAPE, TF_ATTR_TENSOR, TF_ATTR_FUNC};
  TF_Status* s;
  tfe_op_def* d;
  tfe_op_def* d2;
  char* text;
  char* r1;
  char* r2;
  unsigned flags;
  if (size == 0) return 0;
  flags = data[0];
  text = (char*)malloc(size);
  if (text == NULL) return 0;
  memcpy(text, data + 1, size - 1);
  text[size - 1] = '\0'; /* stops at the first NUL byte, as C strings do */

  /* Default values of each kind, straight from the raw text. */
  {
    tfe_attr_value v;
    int r = tfe_parse_attr_default(kinds[(flags >> 1) & 7], (flags >> 4) & 1,
                                   text, strlen(text), &v);
    if (r == 1) tfe_attr_value_clear(&v);
  }

  s = TF_NewStatus();
  d = tfe_op_def_new("FuzzOp");
  add_lines(d, text, s);

  /* Round trip: render, parse the rendering, render again: same text. */
  r1 = tfe_op_def_to_specs(d);
  d2 = tfe_op_def_new("FuzzOp");
  if (r1 != NULL && d2 != NULL) {
    add_rendered(d2, r1, s);
    r2 = tfe_op_def_to_specs(d2);
    if (r2 != NULL && strcmp(r1, r2) != 0) abort();
    tfe_free(r2);
  }
  tfe_free(r1);
  tfe_op_def_free(d2);

  /* Registration runs the whole-definition checks; it owns d either way. */
  if ((flags & 1) && g_registrations < 20000) {
    char name[48];
    snprintf(name, sizeof name, "FuzzOp%d", g_registrations++);
    tfe_free(d->name);
    d->name = tfe_strdup(name);
    if (d->name != NULL && tfe_op_register(d, s)) {
      /* Exercise completion on the registered definition. */
      const tfe_op_def* reg = tfe_op_lookup(name);
      tfe_attrs a;
      tfe_attrs_init(&a);
      if (reg != NULL) tfe_op_def_complete_attrs(reg, &a, s);
      tfe_attrs_destroy(&a);
    }
  } else {
    tfe_op_def_free(d);
  }
  TF_DeleteStatus(s);
  free(text);
  return 0;
}

#ifdef TFE_FUZZ_STANDALONE
static const char* const kSeeds[] = {
    "\x01xT: {float, double, int32} = DT_FLOAT\nix: T\nix2: T\noz: T",
    "\x01xN: int >= 1\nxT: numbertype\niv: N * T\nos: T",
    "\x01xTout: list(type)\nxTin: list(type) >= 0\nia: Tin\nob: Tout",
    "\x03xmode: {'REFLECT', 'SYMMETRIC'} = 'REFLECT'\nxs: string = 'a\\n'",
    "\x0bxsh: shape = { dim { size: 2 } dim { size: -1 } }\nxl: list(shape) = []",
    "\x0dxv: tensor = { dtype: DT_INT32 tensor_shape { dim { size: 2 } } int_val: 1 }",
    "\x05xf: float = -1.5e-3\nxl: list(float) = [1, 2.5, inf]",
    "\x01ir: Ref(float)\nih: resource\nxfn: func = { name: 'g' }",
    "\x00x: {\nxT: list(\nix: Ref(T\nxN: int >= 99999999999999999999",
    "\x12[1, 2, 3]",
    "\x1a[{ unknown_rank: true }, [2, ?]]",
    "\x0c{ dtype: DT_STRING tensor_shape { } string_val: 'x' }",
};

static void run_file(const char* path) {
  FILE* f = fopen(path, "rb");
  unsigned char* buf;
  long n;
  if (f == NULL) {
    fprintf(stderr, "cannot open %s\n", path);
    return;
  }
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  buf = (unsigned char*)malloc(n > 0 ? (size_t)n : 1);
  if (buf != NULL && n >= 0 && fread(buf, 1, (size_t)n, f) == (size_t)n) {
    LLVMFuzzerTestOneInput(buf, (size_t)n);
  }
  free(buf);
  fclose(f);
}

int main(int argc, char** argv) {
  size_t i;
  int k;
  for (i = 0; i < sizeof kSeeds / sizeof kSeeds[0]; i++) {
    /* The seed strings, and every prefix of them (truncated inputs). */
    size_t n = strlen(kSeeds[i]) + (kSeeds[i][0] == '\0' ? 1 : 0);
    size_t cut;
    for (cut = 1; cut <= n; cut++) {
      LLVMFuzzerTestOneInput((const uint8_t*)kSeeds[i], cut);
    }
  }
  for (k = 1; k < argc; k++) run_file(argv[k]);
  printf("fuzz_op_grammar: %d seed(s) and %d file(s) ran clean\n",
         (int)(sizeof kSeeds / sizeof kSeeds[0]), argc - 1);
  return 0;
}
#endif
