import JSON

extension StreetSoccer {
  /// Hello: the pitch, the rules' numbers, who plays, where the dice come from, and the frame.
  public func writeHello(into writer: inout JSONWriter) {
    let pitch = settings.pitch
    writer.key("pitch")
    writer.beginObject()
    writer.field("columns", pitch.columns)
    writer.field("rows", pitch.rows)
    writer.key("mouth")
    writer.pair(pitch.mouth.lowerBound, pitch.mouth.upperBound)
    writer.key("areaRows")
    writer.pair(pitch.areaRows.lowerBound, pitch.areaRows.upperBound)
    writer.field("areaDepth", Pitch.areaDepth)
    writer.endObject()
    writer.key("rules")
    writer.beginObject()
    writer.field("passRange", Self.passRange)
    writer.field("shotRange", Self.shotRange)
    writer.field("tackleCost", Self.tackleCost)
    writer.field("turnsPerSide", settings.turnsPerSide)
    writer.field("clashThreshold", Kit.clashThreshold)
    writer.endObject()
    writer.key("players")
    writer.beginObject()
    for side in Side.allCases { writer.field(side.rawValue, settings.player(side).rawValue) }
    writer.endObject()
    writer.field("dice", settings.dice.rawValue)
    writeFrame(into: &writer)
  }

  /// Frame: the match's state, which changes only when a turn, roll, kit or rematch comes in.
  public func writeFrame(into writer: inout JSONWriter) {
    writer.field("match", state.match)
    writer.field("homeAttacks", state.homeAttacksRight ? "right" : "left")
    writer.field("phase", phase)
    writer.field("toMove", state.toMove.rawValue)
    writer.key("die")
    if state.die == 0 { writer.null() } else { writer.number(state.die) }
    writer.field("turnsPlayed", state.turnsPlayed)
    writer.field("turns", 2 * settings.turnsPerSide)
    writer.key("board")
    writer.board(state.board)
    writer.key("score")
    writer.pair(state.statistics.goals[0], state.statistics.goals[1])
    writer.key("stats")
    writer.beginObject()
    for (name, counts) in state.statistics.fields {
      writer.key(name)
      writer.pair(counts[0], counts[1])
    }
    writer.endObject()
    writer.key("last")
    writeLastTurn(into: &writer)
    writer.key("kits")
    writer.beginObject()
    for side in Side.allCases {
      writer.key(side.rawValue)
      writer.beginObject()
      state.shown[side.index].writeFields(into: &writer)
      writer.endObject()
    }
    writer.field("clash", state.shown[1] != state.kits[1])
    writer.endObject()
  }

  /// What the match waits for: `"roll"` (a `die` input), `"turn"` (a person's turn),
  /// `"computer"` (a computer's turn, due after its delay) or `"over"`.
  var phase: String {
    if state.over { return "over" }
    if state.die == 0 { return "roll" }
    return settings.player(state.toMove) == .human ? "turn" : "computer"
  }

  private func writeLastTurn(into writer: inout JSONWriter) {
    guard state.last.die != 0 else {
      writer.null()
      return
    }
    writer.beginObject()
    writer.field("side", state.last.side.rawValue)
    writer.field("die", state.last.die)
    writer.key("start")
    writer.board(state.last.start)
    writer.key("moves")
    writer.beginArray()
    for (move, result) in zip(state.last.moves, state.last.results) {
      writer.beginObject()
      writer.field("move", move.kind.rawValue)
      writer.field("piece", move.piece)
      writer.key("to")
      writer.pair(move.to.x, move.to.y)
      writer.field("result", result.rawValue)
      writer.endObject()
    }
    writer.endArray()
    writer.endObject()
  }
}
