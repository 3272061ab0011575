#ifndef CURL_SHIM_H
#define CURL_SHIM_H

#include <stddef.h>

// NB: declared, not included: the module Swift imports stays free of the system's headers.
struct sockaddr;

/// Says whether a connection to `address` (just resolved, about to be opened) may go ahead:
/// 1 yes, 0 no.
typedef int (*curl_shim_address_check)(void *context, const struct sockaddr *address,
                                       unsigned int length);
/// Takes `length` bytes of the body; returns 1 to go on, 0 to stop the transfer.
typedef int (*curl_shim_sink)(void *context, const char *data, size_t length);

/// How one GET ended.
typedef struct {
  /// libcurl's CURLcode (0: the transfer finished).
  int code;
  /// The HTTP status, 0 when none was read.
  long status;
  /// Whether `check` refused an address (the transfer then fails with code 7).
  int refused;
  /// The absolute URL a 3xx points to ("" when none).
  char redirect[4096];
  /// The response's Content-Type ("" when none).
  char content_type[256];
  /// What went wrong, in libcurl's words.
  char error[256];
} curl_shim_result;

/// One GET of `url` (http or https only), not following redirects, through no proxy, with
/// every connection's address put to `check` first; the body goes to `sink`. Never raises
/// signals, so it may run on any thread.
void curl_shim_get(const char *url, long timeout_ms, long long max_bytes, const char *user_agent,
                   curl_shim_address_check check, curl_shim_sink sink, void *context,
                   curl_shim_result *result);

#endif
