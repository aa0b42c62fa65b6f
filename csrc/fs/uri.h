/* URI and path helpers for the filesystem layer.
 *
 * A URI is `scheme://host/path`. The scheme must be a letter followed by
 * letters, digits or '.'; anything else (including a plain "/tmp/x" or
 * "rel/x") is a local path with the empty scheme, an empty host and the
 * whole string as its path. */
#ifndef TFE_FS_URI_H_
#define TFE_FS_URI_H_

#include <stdbool.h>
#include <stddef.h>

/* Pieces of a URI, pointing into the parsed string (nothing allocated). */
typedef struct tfe_uri {
  const char* scheme;
  size_t scheme_len;
  const char* host;
  size_t host_len;
  /* Everything after the host, starting with '/' when not empty. */
  const char* path;
  /* Length of "scheme://host" (0 for a local path). */
  size_t prefix_len;
} tfe_uri;

/* Splits `uri` (non-NULL) into its pieces. */
void tfe_uri_parse(const char* uri, tfe_uri* out);

/* True when `s` (NUL-terminated) could appear as the scheme of a URI:
 * empty (local paths) or [A-Za-z][A-Za-z0-9.]*. */
bool tfe_scheme_is_valid(const char* s);

/* `path[0, len)` with duplicate '/', "." and resolvable ".." removed and
 * without a trailing '/'. A rooted path stays rooted ("/.." is "/"); an
 * empty result is "." (or "/" for rooted paths). tfe_malloc'd, NULL when
 * memory runs out. */
char* tfe_path_clean(const char* path, size_t len);

/* `uri` + "/" + `name` with one '/' between them, never touching the
 * scheme://host prefix ("ram://x" + "a" is "ram://x/a", "file://" + "a" is
 * "file:///a"); an empty `uri` gives `name`. tfe_malloc'd, NULL when
 * memory runs out. */
char* tfe_uri_join(const char* uri, const char* name);

/* The last component of `path` (after the last '/'; the whole string if
 * there is none). Points into `path`. */
const char* tfe_path_basename(const char* path);

#endif /* TFE_FS_URI_H_ */
