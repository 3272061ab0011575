import CPosix
import Testing

/// `cposix_set_mmap_threshold`, which the server calls at start (`MallocTuning`).
@Suite struct MmapThresholdTests {
  #if canImport(Glibc)
    @Test func glibcTakesTheServersThreshold() {
      #expect(cposix_set_mmap_threshold(128 << 10) == 1)
    }
  #endif
}
