extension Holes: BatchStepping {
  public static var batchAction: (type: String, fields: [String]) { ("tilt", ["x", "y"]) }

  public static func batchInput(_ numbers: [Double]) throws(SimulationError) -> CheckedInput {
    let x = try checkedTilt(numbers[0], field: "x")
    let y = try checkedTilt(numbers[1], field: "y")
    return CheckedInput(text: tiltText(x: x, y: y), value: Input.tilt(x: x, y: y))
  }

  /// The frame's numbers: the ball (0, 0 and `ballPresent` 0 while it is gone), the readouts
  /// (`phase`: 0 playing, 1 lost, 2 scored, 3 over), then each hole's centre.
  public var batchFields: [String] {
    [
      "ballX", "ballY", "ballPresent", "holeRadius", "score", "ballsLeft", "level", "gameOver",
      "phase",
    ]
      + settings.holes.indices.flatMap { ["hole\($0)X", "hole\($0)Y"] }
  }

  public func writeBatchValues(into values: inout BatchValues) {
    let present = state.phase != .lost && state.phase != .over
    values.append(present ? state.position.x : 0, decimals: 2)
    values.append(present ? state.position.y : 0, decimals: 2)
    values.append(present ? 1 : 0)
    values.append(holeRadius, decimals: 2)
    values.append(Double(state.score))
    values.append(Double(state.ballsLeft))
    values.append(Double(state.level))
    values.append(state.phase == .over ? 1 : 0)
    switch state.phase {
    case .playing: values.append(0)
    case .lost: values.append(1)
    case .scored: values.append(2)
    case .over: values.append(3)
    }
    for centre in holeCentres {
      values.append(centre.x, decimals: 2)
      values.append(centre.y, decimals: 2)
    }
  }
}
