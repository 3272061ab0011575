extension TagCloud {
  /// Everything that changes while the cloud turns.
  struct State: Codable, Sendable, Equatable {
    /// The labels now shown.
    var tags: [Tag]
    /// The sphere's orientation.
    var rotation: Matrix3
    /// Spin in rad per tick: x turns about the vertical axis (yaw), y about the horizontal
    /// axis (pitch).
    var spin: Vector2
    /// Whether a pointer is dragging the cloud.
    var dragging: Bool
    /// Pointer motion in px received during the current tick.
    var drag: Vector2

    /// The start: the config's tags, unrotated, spinning at the idle rate.
    init(config: Config) {
      tags = config.tags
      rotation = .identity
      spin = Vector2(x: config.autoRotate * TagCloud.tickDuration, y: 0)
      dragging = false
      drag = .zero
    }
  }
}
