import JSON

extension JSONWriter {
  /// Writes `[a, b]`.
  mutating func pair(_ first: Int, _ second: Int) {
    beginArray()
    number(first)
    number(second)
    endArray()
  }

  /// Writes `{"pieces": [x, y, ...], "ball": [x, y]}`: home's shirts 1 to 5, then away's.
  mutating func board(_ board: StreetSoccer.Board) {
    beginObject()
    key("pieces")
    beginArray()
    for lane in 0..<10 {
      let square = StreetSoccer.Board.unpack(board.pieces[lane])
      number(square.x)
      number(square.y)
    }
    endArray()
    key("ball")
    let ball = board.ballSquare
    pair(ball.x, ball.y)
    endObject()
  }
}
