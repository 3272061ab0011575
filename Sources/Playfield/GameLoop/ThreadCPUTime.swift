import HTTP

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The CPU time the calling thread has used, to measure what a step costs: unlike the
/// monotonic clock it does not count time the thread spent preempted, so a light session on a
/// busy machine does not look heavy.
enum ThreadCPUTime {
  static func now() -> MonotonicTime {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return MonotonicTime(
      nanoseconds: UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec))
  }
}
