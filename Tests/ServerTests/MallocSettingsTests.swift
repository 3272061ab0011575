import CPosix
import Testing

/// The allocator settings the server makes at start (`MallocTuning`).
@Suite struct MallocSettingsTests {
  #if canImport(Glibc)
    @Test func glibcTakesOneHeap() {
      #expect(cposix_set_arena_max(1) == 1)
    }
  #endif
}
