import JSON

/// Tilt a ball past rotating black holes to the flag (seed "Return to HOLES"), with the pulls
/// of all holes summed, levels, and a one-second pause after each score or loss.
public struct Holes: ConfiguredModel {
  public static let kind = "holes"
  public static let title = "Holes"
  public static let summary = "Tilt the ball past the rotating black holes to the flag."

  let settings: Config
  let seed: UInt64
  public internal(set) var tick: UInt64 = 0
  var state: State

  init(settings: Config, seed: UInt64) {
    self.settings = settings
    self.seed = seed
    state = State(config: settings)
  }

  func validateRestoredState() throws(SimulationError) {
    let numbers = [state.velocity.x, state.velocity.y, state.angle, state.rotationSpeed]
    guard numbers.allSatisfy(\.isFinite), (0...settings.balls).contains(state.ballsLeft),
      (0...settings.width).contains(state.position.x),
      (0...settings.height).contains(state.position.y),
      (-2...2).contains(state.tilt.x), (-2...2).contains(state.tilt.y),
      state.score >= 0, state.level >= 1, (0...settings.pauseTicks).contains(state.pause)
    else { throw SimulationError(field: "snapshot", message: "holds an invalid game") }
  }

  /// The hole radius at the current level.
  var holeRadius: Double {
    min(settings.maxHoleRadius, settings.holeRadius + Double(state.level - 1) * settings.holeGrowth)
  }

  /// Hole centres in px: the configured pattern rotated by the current angle about the
  /// table's centre.
  var holeCentres: [Vector2] {
    let centre = Vector2(x: settings.width / 2, y: settings.height / 2)
    let cosine = DeterministicMath.cos(state.angle)
    let sine = DeterministicMath.sin(state.angle)
    return settings.holes.map { fraction in
      let offset = Vector2(x: fraction.x * settings.width, y: fraction.y * settings.height) - centre
      return centre
        + Vector2(x: offset.x * cosine - offset.y * sine, y: offset.x * sine + offset.y * cosine)
    }
  }
}
