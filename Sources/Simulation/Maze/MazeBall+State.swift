extension MazeBall {
  /// Everything that changes while the ball rolls.
  struct State: Codable, Sendable, Equatable {
    /// The current maze.
    var maze: Maze
    /// Counts maze changes, so clients can tell whether their copy is current.
    var revision: Int
    /// Ball centre in px.
    var position: Vector2
    /// Ball velocity in px/s.
    var velocity: Vector2
    /// The latest tilt in g: x > 0 rolls right, y > 0 rolls up (towards row 0).
    var tilt: Vector2

    /// The start: the config's maze and the ball at rest at the centre of the box, or in the
    /// nearest empty cell if the centre is blocked.
    init(config: Config) {
      maze = config.cells
      revision = 0
      position = Vector2(x: config.width / 2, y: config.height / 2)
      velocity = .zero
      tilt = .zero
    }
  }
}
