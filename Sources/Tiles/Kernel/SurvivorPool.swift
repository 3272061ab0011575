import Synchronization

/// Hands out the orbits that outlived a phase, in chunks, to whichever worker asks next.
final class SurvivorPool: Sendable {
  /// Orbits per take: large enough to keep the atomic out of the way, small enough to balance.
  static let chunk = 64
  let orbits: [Orbit]
  let cancellation: RenderCancellation?
  private let next = Atomic<Int>(0)

  init(orbits: [Orbit], cancellation: RenderCancellation? = nil) {
    self.orbits = orbits
    self.cancellation = cancellation
  }

  /// The next untaken range of `orbits`, or nil when all are taken or the render must stop.
  func take() -> Range<Int>? {
    if let cancellation, cancellation.reason != nil { return nil }
    let start = next.wrappingAdd(Self.chunk, ordering: .relaxed).oldValue
    guard start < orbits.count else { return nil }
    return start..<min(start + Self.chunk, orbits.count)
  }
}
