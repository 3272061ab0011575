extension StreetSoccer.Board: Codable {
  private enum CodingKeys: String, CodingKey {
    case pieces, ball
  }

  /// Decodes ten packed squares and the ball's, each a byte (the referee checks the rest).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let squares = try container.decode([Int].self, forKey: .pieces)
    let ball = try container.decode(Int.self, forKey: .ball)
    guard squares.count == 10, (squares + [ball]).allSatisfy({ (0...0xFF).contains($0) }) else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: [CodingKeys.pieces], debugDescription: "a board needs 10 squares"))
    }
    var pieces = SIMD16<UInt8>(repeating: Self.unused)
    for (lane, square) in squares.enumerated() { pieces[lane] = UInt8(square) }
    self.init(pieces: pieces, ball: UInt8(ball))
  }

  /// Encodes the ten packed squares, then the ball's.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode((0..<10).map { Int(pieces[$0]) }, forKey: .pieces)
    try container.encode(Int(ball), forKey: .ball)
  }
}

extension StreetSoccer.Referee {
  /// Whether a board obeys the rules' invariants: every piece on the pitch on a square of its
  /// own, goalkeepers in their own goal areas and nobody else in one, the ball on the pitch,
  /// and in a goal area only in its goalkeeper's hands.
  func isValid(_ board: Board) -> Bool {
    var seen: Set<UInt8> = []
    for lane in 0..<10 {
      let square = Board.unpack(board.pieces[lane])
      guard pitch.contains(square), Board.pack(square) == board.pieces[lane],
        seen.insert(board.pieces[lane]).inserted
      else { return false }
      let side = Board.side(ofLane: lane)
      let area = areaOwner(square)
      guard Board.shirt(ofLane: lane) == 1 ? area == side : area == nil else { return false }
    }
    let ball = Board.unpack(board.ball)
    guard pitch.contains(ball), Board.pack(ball) == board.ball else { return false }
    guard let area = areaOwner(ball) else { return true }
    return board.holder == Board.lane(area, 1)
  }
}
