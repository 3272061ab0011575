import JSON

/// A shared black canvas that several people paint on with round brushes (seed "Paintbrush"):
/// strokes arrive as batches of points, each person can undo their own last stroke, and the
/// picture is an ordered list of marks, so every client and every replay draws the same pixels.
public struct Paintbrush: ConfiguredModel {
  public static let kind = "paintbrush"
  public static let title = "Paintbrush"
  public static let summary = "Paint together on one black canvas; undo your own strokes."

  /// Most points one `stroke` message may carry.
  public static let maxPointsPerMessage = 256
  /// The drawing guest: whoever holds the drawing token may paint and undo, but not run, stop,
  /// step or clear the session.
  public static let seats = [
    Seat(name: "draw", role: "drawer", label: "drawing", inputs: ["stroke", "undo"])
  ]
  /// The seed's five brush colours, white first (the default).
  public static let palette = ["#ffffff", "#ff0000", "#0000ff", "#ffff00", "#00ff00"]
  /// What ERASE paints with: the canvas colour.
  public static let background = "#000000"

  let settings: Config
  let seed: UInt64
  public internal(set) var tick: UInt64 = 0
  var state = State()

  init(settings: Config, seed: UInt64) {
    self.settings = settings
    self.seed = seed
  }

  func validateRestoredState() throws(SimulationError) {
    let problem = SimulationError(field: "snapshot", message: "holds an invalid picture")
    guard state.strokes.count <= settings.maxStrokes, state.version >= 0,
      state.pointCount == state.marks.reduce(0, { $0 + $1.points.count / 2 }),
      state.pointCount <= settings.maxPoints,
      state.strokes.allSatisfy({ $0.id < state.nextStroke })
    else { throw problem }
    let ids = Set(state.strokes.map(\.id))
    for mark in state.marks {
      guard ids.contains(mark.stroke), mark.points.count >= 2, mark.points.count % 2 == 0,
        mark.points.allSatisfy({ $0.isFinite && $0 >= 0 }),
        (1...Input.maxRadius).contains(mark.radius), Input.isColor(mark.color)
      else { throw problem }
    }
  }
}
