/* Test plugin that registers nothing: its load-time constructor only
 * counts how many times it ran, which the library-loading tests read back
 * through dlsym. It imports nothing from the runtime. */

static int g_loads;

__attribute__((constructor)) static void lib_empty_on_load(void) {
  g_loads++;
}

/* Number of times the constructor ran in this process. */
__attribute__((visibility("default"))) int tfe_test_lib_empty_loads(void) {
  return g_loads;
}
