import JSON

extension Holes {
  /// Hello: the table, the ball, the flag, the holes' count, the colours, and the current frame.
  public func writeHello(into writer: inout JSONWriter) {
    writer.world(width: settings.width, height: settings.height)
    writer.field("ballRadius", settings.ballRadius)
    writer.field("flag", ["x": 0, "y": 0, "size": .number(settings.flagSize)] as JSONValue)
    writer.field("balls", settings.balls)
    writer.field("holeCount", settings.holes.count)
    writer.field(
      "colors",
      ["table": "#1b7a2e", "ball": "#ffd400", "hole": "#000000", "flag": "#ffffff"] as JSONValue)
    writeFrame(into: &writer)
  }

  /// Frame: the ball (null while a lost ball is gone), the hole centres as a flat array, and
  /// the game's readouts.
  public func writeFrame(into writer: inout JSONWriter) {
    writer.key("ball")
    if state.phase == .lost || state.phase == .over {
      writer.null()
    } else {
      writer.point(state.position.x, state.position.y, decimals: 2)
    }
    writer.key("holes")
    writer.beginArray()
    for centre in holeCentres {
      writer.number(centre.x, decimals: 2)
      writer.number(centre.y, decimals: 2)
    }
    writer.endArray()
    writer.field("holeRadius", holeRadius, decimals: 2)
    writer.field("score", state.score)
    writer.field("ballsLeft", state.ballsLeft)
    writer.field("level", state.level)
    writer.field("phase", state.phase.rawValue)
    writer.field("gameOver", state.phase == .over)
    writer.field("pause", state.pause)
  }
}
