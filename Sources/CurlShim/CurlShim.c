#include "CurlShim.h"

#include <curl/curl.h>
#include <pthread.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

// NB: libcurl's setopt is variadic, which Swift cannot call; this file sets its options.

typedef struct {
  curl_shim_address_check check;
  curl_shim_sink sink;
  void *context;
  curl_shim_result *result;
} transfer;

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void global_init(void) { curl_global_init(CURL_GLOBAL_DEFAULT); }

static curl_socket_t open_socket(void *data, curlsocktype purpose, struct curl_sockaddr *address) {
  transfer *t = data;
  if (purpose != CURLSOCKTYPE_IPCXN ||
      !t->check(t->context, &address->addr, (unsigned int)address->addrlen)) {
    t->result->refused = 1;
    return CURL_SOCKET_BAD;
  }
  return socket(address->family, address->socktype, address->protocol);
}

static size_t write_body(char *data, size_t size, size_t count, void *user) {
  transfer *t = user;
  size_t length = size * count;
  return t->sink(t->context, data, length) ? length : 0;
}

static void copy(char *to, size_t capacity, const char *from) {
  if (from == NULL) { to[0] = 0; return; }
  strncpy(to, from, capacity - 1);
  to[capacity - 1] = 0;
}

void curl_shim_get(const char *url, long timeout_ms, long long max_bytes, const char *user_agent,
                   curl_shim_address_check check, curl_shim_sink sink, void *context,
                   curl_shim_result *result) {
  pthread_once(&once, global_init);
  memset(result, 0, sizeof *result);
  CURL *curl = curl_easy_init();
  if (curl == NULL) {
    result->code = CURLE_FAILED_INIT;
    copy(result->error, sizeof result->error, "libcurl could not start");
    return;
  }
  transfer t = {check, sink, context, result};
  char error[CURL_ERROR_SIZE] = {0};
  curl_easy_setopt(curl, CURLOPT_URL, url);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(curl, CURLOPT_PROXY, "");
  curl_easy_setopt(curl, CURLOPT_NOPROXY, "*");
  curl_easy_setopt(curl, CURLOPT_FORBID_REUSE, 1L);
  curl_easy_setopt(curl, CURLOPT_FRESH_CONNECT, 1L);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, timeout_ms);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
  curl_easy_setopt(curl, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)max_bytes);
  curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");
  curl_easy_setopt(curl, CURLOPT_USERAGENT, user_agent);
  curl_easy_setopt(curl, CURLOPT_OPENSOCKETFUNCTION, open_socket);
  curl_easy_setopt(curl, CURLOPT_OPENSOCKETDATA, &t);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, write_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &t);
  struct curl_slist *headers =
      curl_slist_append(NULL, "Accept: text/html,application/xhtml+xml,application/ld+json;q=0.9,*/*;q=0.5");
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  CURLcode code = curl_easy_perform(curl);
  result->code = (int)code;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &result->status);
  char *redirect = NULL;
  curl_easy_getinfo(curl, CURLINFO_REDIRECT_URL, &redirect);
  copy(result->redirect, sizeof result->redirect, redirect);
  char *type = NULL;
  curl_easy_getinfo(curl, CURLINFO_CONTENT_TYPE, &type);
  copy(result->content_type, sizeof result->content_type, type);
  copy(result->error, sizeof result->error, error[0] ? error : curl_easy_strerror(code));
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
}
