import JSON

/// Balls in a box (seed "SpaceBalls"): oblique collisions with mass and restitution, from two
/// balls to ten thousand, with a spatial hash and substeps so that nothing tunnels.
public struct BouncingBalls: ConfiguredModel {
  public static let kind = "bouncing-balls"
  public static let title = "Bouncing balls"
  public static let summary =
    "Balls in a box with oblique collisions, mass and restitution; add and throw them."

  let settings: Config
  let seed: UInt64
  public internal(set) var tick: UInt64 = 0
  var state: State
  /// Broad-phase scratch space, rebuilt every substep; not part of the state.
  var grid = SpatialGrid()
  /// Substeps taken by the last tick (a diagnostic; not part of the state).
  var substeps = 0

  private enum CodingKeys: String, CodingKey {
    case settings, seed, tick, state
  }

  init(settings: Config, seed: UInt64) {
    self.settings = settings
    self.seed = seed
    state = State(config: settings, seed: seed)
  }

  func validateRestoredState() throws(SimulationError) {
    // NB: positions feed integer grid coordinates, so they must be finite and in the world.
    let range = settings.radiusMin...settings.radiusMax
    let valid = state.balls.allSatisfy { ball in
      ball.vx.isFinite && ball.vy.isFinite && range.contains(ball.radius) && ball.mass > 0
        && ball.mass.isFinite && (0...settings.width).contains(ball.x)
        && (0...settings.height).contains(ball.y) && Self.palette.indices.contains(ball.color)
    }
    guard valid, (1...settings.maxBalls).contains(state.balls.count), state.collisions >= 0 else {
      throw SimulationError(field: "snapshot", message: "holds an invalid ball")
    }
  }
}
