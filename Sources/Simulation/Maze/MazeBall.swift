import JSON

/// A ball rolled through a maze by tilt (seed "Maze"): tap cells to build walls; the ball
/// bounces off blocks and the box with proper circle–box contacts, so it neither sticks in
/// corners nor passes through blocks.
public struct MazeBall: ConfiguredModel {
  public static let kind = "maze"
  public static let title = "Maze ball"
  public static let summary = "Tap cells to build a maze, then tilt to roll the ball through it."

  /// Most substeps one tick may need.
  static let substepLimit = 64.0
  /// Fewest substeps a tick: the seed stepped at 120 Hz.
  static let substepMinimum = 2

  let settings: Config
  let seed: UInt64
  public internal(set) var tick: UInt64 = 0
  var state: State
  /// The state's fields, in the order snapshots have always had them.
  private enum CodingKeys: String, CodingKey {
    case settings, seed, tick, state
  }

  init(settings: Config, seed: UInt64) {
    self.settings = settings
    self.seed = seed
    state = State(config: settings)
    placeBallClear()
  }

  func validateRestoredState() throws(SimulationError) {
    let numbers = [state.velocity.x, state.velocity.y]
    guard state.maze.rows == settings.rows, state.maze.columns == settings.columns,
      state.maze.emptyCount > 0, state.revision >= 0, numbers.allSatisfy(\.isFinite),
      (-2...2).contains(state.tilt.x), (-2...2).contains(state.tilt.y),
      (0...settings.width).contains(state.position.x),
      (0...settings.height).contains(state.position.y),
      overlap(at: state.position) <= Self.tolerance
    else { throw SimulationError(field: "snapshot", message: "holds an invalid maze or ball") }
  }
}
