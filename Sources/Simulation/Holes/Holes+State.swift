extension Holes {
  /// Where a game stands.
  enum Phase: String, Codable, Sendable {
    /// The ball rolls.
    case playing
    /// A ball fell in a hole; the game pauses, then a new ball starts.
    case lost
    /// The ball reached the flag; the game pauses, then a new ball starts.
    case scored
    /// No balls left: GAME OVER until a restart.
    case over
  }

  /// Everything that changes during a game.
  struct State: Codable, Sendable, Equatable {
    /// Ball centre in px.
    var position: Vector2
    /// Ball velocity in px/s.
    var velocity: Vector2
    /// The latest tilt in g: x > 0 rolls right, y > 0 rolls up.
    var tilt: Vector2
    /// Rotation of the hole pattern in rad.
    var angle: Double
    /// Rotation speed in rad per tick.
    var rotationSpeed: Double
    var score: Int
    var ballsLeft: Int
    var level: Int
    var phase: Phase
    /// Ticks left in the pause after a score or a lost ball.
    var pause: Int

    /// A new game: the ball at rest at the bottom-right corner.
    init(config: Config) {
      position = Holes.start(config)
      velocity = .zero
      tilt = .zero
      angle = 0
      rotationSpeed = config.rotationStep
      score = 0
      ballsLeft = config.balls
      level = 1
      phase = .playing
      pause = 0
    }
  }

  /// Where each ball starts: the bottom-right corner, touching both edges.
  static func start(_ config: Config) -> Vector2 {
    Vector2(x: config.width - config.ballRadius, y: config.height - config.ballRadius)
  }
}
