import Apollonian
import Synchronization

/// Every level's packing, each computed once on first use and kept for the life of the
/// process. Callers asking for a level under computation wait for that one computation.
///
/// Memory: a sphere is 40 bytes and levels 0 to 10 hold about 560,000 together, so the store
/// never holds more than about 23 MB.
final class PackingStore: Sendable {
  /// One level's packing, nil until computed; its lock is held while computing.
  private final class Slot: Sendable {
    let packing = Mutex<ApollonianPacking?>(nil)
  }

  private let levels = SphereRequest.levels.map { _ in Slot() }

  /// The packing of `level` (within `SphereRequest.levels`). Blocks while it is computed, so
  /// call it off the event loop.
  func packing(_ level: Int) -> ApollonianPacking {
    // NB: the computation runs under the level's lock: that lock is the single flight.
    levels[level].packing.withLock { slot in
      if let packing = slot { return packing }
      let packing = ApollonianPacking(level: level)
      slot = packing
      return packing
    }
  }
}
