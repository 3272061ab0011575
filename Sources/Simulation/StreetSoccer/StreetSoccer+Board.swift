extension StreetSoccer {
  /// The pieces and the ball: everything the rules look at, in 17 bytes, so that a search can
  /// copy boards freely.
  ///
  /// A square is packed as `y << 4 | x`. The piece standing on the ball's square holds the
  /// ball; when none does, the ball is loose.
  public struct Board: Hashable, Sendable {
    /// Each piece's packed square: home shirts 1 to 5 in lanes 0 to 4, away shirts 1 to 5 in
    /// lanes 5 to 9; lanes 10 to 15 hold `Board.unused`.
    var pieces: SIMD16<UInt8>
    /// The ball's packed square.
    var ball: UInt8

    /// What lanes 10 to 15 hold: no square packs to it.
    static let unused: UInt8 = 0xFF

    /// Packs a square of the pitch.
    static func pack(_ square: Square) -> UInt8 { UInt8(square.y << 4 | square.x) }

    /// Unpacks a square.
    static func unpack(_ packed: UInt8) -> Square {
      Square(x: Int(packed & 0x0F), y: Int(packed >> 4))
    }

    /// The lane of a side's piece with shirt `shirt` (1 to 5).
    static func lane(_ side: Side, _ shirt: Int) -> Int { side.index * 5 + shirt - 1 }

    /// The side of a lane.
    static func side(ofLane lane: Int) -> Side { lane < 5 ? .home : .away }

    /// The shirt number of a lane.
    static func shirt(ofLane lane: Int) -> Int { lane % 5 + 1 }

    /// The lane of the piece on a packed square, or nil.
    func lane(at packed: UInt8) -> Int? {
      // NB: a search asks this millions of times: the lanes are compared as two 64-bit words
      // (the lowest byte flagged by the zero-byte test is exact, so it names the lane).
      let words = unsafeBitCast(pieces, to: SIMD2<UInt64>.self)
      let spread = UInt64(packed) &* 0x0101_0101_0101_0101
      let low = Self.zeroBytes(words[0] ^ spread)
      if low != 0 { return low.trailingZeroBitCount >> 3 }
      let high = Self.zeroBytes(words[1] ^ spread)
      return high != 0 ? 8 + high.trailingZeroBitCount >> 3 : nil
    }

    /// Whether a piece stands on a packed square.
    func isTaken(_ packed: UInt8) -> Bool { lane(at: packed) != nil }

    /// The high bit of each zero byte of `word` set (and perhaps of bytes above the lowest
    /// zero byte, from the borrow).
    private static func zeroBytes(_ word: UInt64) -> UInt64 {
      (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
    }

    /// The lane of the piece holding the ball, or nil when it is loose.
    var holder: Int? { lane(at: ball) }

    /// Where a side's piece stands.
    public func square(of side: Side, shirt: Int) -> Square {
      Self.unpack(pieces[Self.lane(side, shirt)])
    }

    /// Where the ball is.
    public var ballSquare: Square { Self.unpack(ball) }

    /// The side whose piece holds the ball, or nil when it is loose.
    public var possession: Side? { holder.map(Self.side(ofLane:)) }

    /// The shirt number of the piece holding the ball, or nil when it is loose.
    public var holderShirt: Int? { holder.map(Self.shirt(ofLane:)) }
  }
}
