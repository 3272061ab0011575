extension MazeBall: BatchStepping {
  public static var batchAction: (type: String, fields: [String]) { ("tilt", ["x", "y"]) }

  public static func batchInput(_ numbers: [Double]) throws(SimulationError) -> CheckedInput {
    let x = try checkedTilt(numbers[0], field: "x")
    let y = try checkedTilt(numbers[1], field: "y")
    return CheckedInput(text: tiltText(x: x, y: y), value: Input.tilt(x: x, y: y))
  }

  /// The frame's numbers: the ball's centre, the tilt and the maze revision.
  public var batchFields: [String] { ["ballX", "ballY", "tiltX", "tiltY", "revision"] }

  public func writeBatchValues(into values: inout BatchValues) {
    values.append(state.position.x, decimals: 2)
    values.append(state.position.y, decimals: 2)
    values.append(state.tilt.x, decimals: 3)
    values.append(state.tilt.y, decimals: 3)
    values.append(Double(state.revision))
  }
}
