// POSIX and Linux calls that Swift's Glibc module does not import: epoll, eventfd, accept4,
// mallopt, malloc_trim.
#ifndef CPOSIX_H
#define CPOSIX_H

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#if defined(__linux__)
#include <sys/epoll.h>
#include <sys/eventfd.h>

/// epoll_ctl with the file descriptor as the event's data.
int cposix_epoll_ctl(int epfd, int op, int fd, uint32_t events);

/// epoll_wait writing each ready descriptor and its events into two plain arrays, so Swift need
/// not lay out the packed `struct epoll_event`.
int cposix_epoll_wait(int epfd, int *fds, uint32_t *events, int max, int timeout_ms);
#endif

/// Lowers the calling thread's scheduling priority by `increment` nice steps (Linux threads
/// each have their own nice value; elsewhere, nothing). Returns 0 or -1 with errno.
int cposix_nice_this_thread(int increment);

/// accept4 where it exists, accept plus fcntl elsewhere: a non-blocking, close-on-exec socket.
int cposix_accept(int fd);

/// Limits glibc's malloc to `count` heaps (mallopt M_ARENA_MAX); 1 on success, 0 on failure or
/// without glibc.
int cposix_set_arena_max(int count);

/// Gives the free memory in malloc's heaps back to the system (glibc's malloc_trim(0)); 1 when
/// some was given back, 0 when none was or without glibc.
int cposix_malloc_trim(void);

#endif
