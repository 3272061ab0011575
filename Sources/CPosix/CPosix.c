#define _GNU_SOURCE
#include "CPosix.h"
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/syscall.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#if defined(__linux__)
int cposix_epoll_ctl(int epfd, int op, int fd, uint32_t events) {
  struct epoll_event event = {0};
  event.events = events;
  event.data.fd = fd;
  return epoll_ctl(epfd, op, fd, &event);
}

int cposix_epoll_wait(int epfd, int *fds, uint32_t *events, int max, int timeout_ms) {
  struct epoll_event ready[256];
  if (max > 256) max = 256;
  int n = epoll_wait(epfd, ready, max, timeout_ms);
  for (int i = 0; i < n; i++) {
    fds[i] = ready[i].data.fd;
    events[i] = ready[i].events;
  }
  return n;
}
#endif

int cposix_nice_this_thread(int increment) {
#if defined(__linux__)
  pid_t thread = (pid_t)syscall(SYS_gettid);
  errno = 0;
  int now = getpriority(PRIO_PROCESS, (id_t)thread);
  if (now == -1 && errno != 0) return -1;
  return setpriority(PRIO_PROCESS, (id_t)thread, now + increment);
#else
  (void)increment;
  return 0;
#endif
}

int cposix_accept(int fd) {
#if defined(__linux__)
  return accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
#else
  int client = accept(fd, NULL, NULL);
  if (client >= 0) {
    fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK);
    fcntl(client, F_SETFD, FD_CLOEXEC);
    int one = 1;
    setsockopt(client, SOL_SOCKET, SO_NOSIGPIPE, &one, sizeof one);
  }
  return client;
#endif
}

int cposix_set_arena_max(int count) {
#if defined(__GLIBC__)
  return mallopt(M_ARENA_MAX, count);
#else
  (void)count;
  return 0;
#endif
}

int cposix_malloc_trim(void) {
#if defined(__GLIBC__)
  return malloc_trim(0);
#else
  return 0;
#endif
}
