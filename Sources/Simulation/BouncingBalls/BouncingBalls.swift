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

  /// The masses an `add-ball` input may give (px² of density 1).
  static let massRange = 1e-6...1e12
  /// How far past `maxSpeed` (squared) a restored speed may be: capping rounds.
  static let restoredSpeedSlack = 1 + 1e-9

  init(settings: Config, seed: UInt64) {
    self.settings = settings
    self.seed = seed
    state = State(config: settings, seed: seed)
  }

  func validateRestoredState() throws(SimulationError) {
    // NB: positions feed integer grid coordinates, so they must be finite and in the world;
    // speeds and masses are held to what a step and an input can produce, so that collisions
    // between restored balls stay finite (a mass of 1e-319 against 1e161 made NaN positions).
    let range = settings.radiusMin...settings.radiusMax
    let speedLimitSquared = settings.maxSpeed * settings.maxSpeed * Self.restoredSpeedSlack
    let valid = state.balls.allSatisfy { ball in
      ball.vx * ball.vx + ball.vy * ball.vy <= speedLimitSquared && range.contains(ball.radius)
        && Self.massRange.contains(ball.mass) && (0...settings.width).contains(ball.x)
        && (0...settings.height).contains(ball.y) && Self.palette.indices.contains(ball.color)
    }
    guard valid, (1...settings.maxBalls).contains(state.balls.count), state.collisions >= 0 else {
      throw SimulationError(field: "snapshot", message: "holds an invalid ball")
    }
  }
}
