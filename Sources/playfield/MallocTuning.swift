import CPosix

/// Settings for the C allocator that keep the server's RSS from creeping up under load.
enum MallocTuning {
  /// Bytes from which one allocation gets its own mapping, handed back to the system when freed.
  static let mmapThreshold: Int32 = 128 << 10

  /// Fixes glibc's mmap threshold at `mmapThreshold` (without glibc, does nothing).
  ///
  /// NB: glibc starts at 128 KiB but raises the threshold to the size of each mapped block
  /// that is freed, so after the first tile render its large scratch buffers (orbits, pixels)
  /// come from the per-thread heaps instead; between the long-lived cached tiles there, the
  /// freed space is seldom returned: 1,000 new tiles grew RSS by 27 MiB to cache 3 MiB of PNG.
  /// Setting the threshold turns that adjustment off (docs/reliability.md, Soak).
  static func apply() {
    _ = cposix_set_mmap_threshold(mmapThreshold)
  }
}
