import CPosix
import Foundation

/// Keeps the server's RSS to what its heap holds: one malloc heap for all threads, and a
/// thread that gives its free pages back to the system every `trimInterval` seconds.
///
/// NB: glibc maps blocks from 128 KiB up on their own, but raises that threshold to the size of
/// each mapped block that is freed, so after the first tile render the kernels' large scratch
/// buffers come from the worker threads' heaps, between long-lived cached tiles, and the freed
/// space is seldom returned (1,000 new tiles grew RSS by 26 MiB to cache 3 MiB of PNG).
/// Fixing the threshold cured that but made cheap tiles up to twice as slow (a fresh mapping,
/// zeroed by the kernel, for every scratch buffer); `malloc_trim` returns the freed pages every
/// few seconds instead, and does so only with one heap (docs/reliability.md, Soak).
enum MallocTuning {
  /// Seconds between two trims.
  static let trimInterval = 10.0

  /// Sets the heap count and starts the trimming thread (without glibc, does nothing).
  static func apply() {
    guard cposix_set_arena_max(1) == 1 else { return }
    let thread = Thread {
      while true {
        Thread.sleep(forTimeInterval: trimInterval)
        _ = cposix_malloc_trim()
      }
    }
    thread.name = "malloc-trim"
    thread.start()
  }
}
