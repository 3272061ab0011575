// POSIX and Linux calls that Swift's Glibc module does not import: epoll, eventfd, accept4.
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

#endif
