/// Feeds a worker's lanes with survivors from the shared pool.
struct SurvivorSource {
  let pool: SurvivorPool
  private var range = 0..<0

  init(pool: SurvivorPool) {
    self.pool = pool
  }

  /// The next survivor nobody has taken, or nil when the pool is dry.
  mutating func next() -> Orbit? {
    if range.isEmpty {
      guard let taken = pool.take() else { return nil }
      range = taken
    }
    defer { range = range.dropFirst() }
    return pool.orbits[range.lowerBound]
  }
}
