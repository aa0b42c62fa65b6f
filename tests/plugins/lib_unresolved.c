/* Test plugin that cannot be loaded: it calls a function that no library
 * defines, so dlopen with RTLD_NOW fails with an undefined-symbol error. */

extern void tfe_test_symbol_that_nobody_defines(void);

__attribute__((visibility("default"))) void tfe_test_lib_unresolved_entry(
    void) {
  tfe_test_symbol_that_nobody_defines();
}
