extension StreetSoccer {
  /// A set of packed squares (`y << 4 | x`, below 144) as 192 bits, for quick line tests.
  struct SquareSet: Equatable, Sendable {
    private var words = SIMD4<UInt64>(repeating: 0)

    /// The empty set.
    init() {}

    /// The squares the pieces of `board` stand on.
    init(occupiedBy board: Board) {
      for lane in 0..<10 { insert(board.pieces[lane]) }
    }

    mutating func insert(_ packed: UInt8) {
      words[Int(packed >> 6)] |= 1 << UInt64(packed & 63)
    }

    func contains(_ packed: UInt8) -> Bool {
      words[Int(packed >> 6)] & (1 << UInt64(packed & 63)) != 0
    }

    /// Whether the two sets share a square.
    func intersects(_ other: SquareSet) -> Bool {
      any((words & other.words) .!= 0)
    }

    /// The squares in both sets.
    func intersection(_ other: SquareSet) -> SquareSet {
      var set = SquareSet()
      set.words = words & other.words
      return set
    }

    var isEmpty: Bool { words == .zero }
  }
}
