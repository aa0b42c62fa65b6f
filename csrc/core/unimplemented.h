/* The one way to mark a public function that tfe declares but deliberately
 * does not implement.
 *
 * Such a function still exists (it is declared and exported, so programs
 * written for TensorFlow link), but it does nothing except report the gap:
 *
 *   - With a TF_Status argument, its body uses
 *       TFE_UNIMPLEMENTED(status, "<the TF function name>");
 *     which sets TF_UNIMPLEMENTED and a message naming the function, then
 *     returns the neutral value its header comment documents (NULL, 0, ...).
 *     The name must be a string literal: the macro refuses anything else at
 *     compile time, and tools/api_coverage.py finds stubs by that literal.
 *
 *   - Without a TF_Status argument there is no error channel, so the body
 *     carries a comment marker of the form
 *       / * TFE_UNIMPLEMENTED: <the TF function name> * /
 *     (written without the spaces inside the comment delimiters), does
 *     nothing and returns the documented neutral value.
 *
 * tools/api_coverage.py lists every marked function as a stub in
 * docs/COVERAGE.md, and tests assert that each stub reports
 * TF_UNIMPLEMENTED. A stub is never counted as implemented. */
#ifndef TFE_CORE_UNIMPLEMENTED_H_
#define TFE_CORE_UNIMPLEMENTED_H_

#include "core/status_internal.h"

/* `name " ..."` only compiles when name is a string literal. A NULL status
 * is accepted (tfe_status_setf ignores it). */
#define TFE_UNIMPLEMENTED(status, name)                  \
  tfe_status_setf((status), TF_UNIMPLEMENTED, "%s",      \
                  name " is not implemented in tfe")

#endif /* TFE_CORE_UNIMPLEMENTED_H_ */
