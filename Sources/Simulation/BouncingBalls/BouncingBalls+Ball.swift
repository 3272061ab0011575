extension BouncingBalls {
  /// One ball: position and velocity in world units, plus its static properties.
  struct Ball: Sendable, Equatable {
    /// Centre x in px.
    var x: Double
    /// Centre y in px (down).
    var y: Double
    /// Velocity x in px/s.
    var vx: Double
    /// Velocity y in px/s.
    var vy: Double
    /// Radius in px.
    var radius: Double
    /// Mass (π r² in px² at density 1, or 1 when masses are equal).
    var mass: Double
    /// Index into `BouncingBalls.palette`.
    var color: Int
  }

  /// Ball colours; ball k gets colour k mod the count, so the seed's two balls are yellow and white.
  static let palette = [
    "#ffd400", "#ffffff", "#4fc3f7", "#ef5350", "#66bb6a", "#ab47bc", "#ffa726", "#26c6da",
  ]
}
