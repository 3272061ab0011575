import JSON

extension BouncingBalls {
  /// Hello: the world, the palette, each ball's radius and colour (static per ball), and the
  /// current frame.
  public func writeHello(into writer: inout JSONWriter) {
    writer.world(width: settings.width, height: settings.height)
    writer.field("boundary", settings.boundary)
    writer.field("restitution", settings.restitution)
    writer.field("maxSpeed", settings.maxSpeed)
    writer.key("radiusRange")
    writer.beginArray()
    writer.number(settings.radiusMin)
    writer.number(settings.radiusMax)
    writer.endArray()
    writer.field("maxBalls", settings.maxBalls)
    writer.key("palette")
    writer.beginArray()
    for color in Self.palette { writer.string(color) }
    writer.endArray()
    writer.key("radii")
    writer.beginArray()
    for ball in state.balls { writer.number(ball.radius, decimals: 2) }
    writer.endArray()
    writer.key("colors")
    writer.beginArray()
    for ball in state.balls { writer.number(ball.color) }
    writer.endArray()
    writeFrame(into: &writer)
  }

  /// Per ball its radius (`12.34,`), colour (`7,`) and position (`1234.56,` twice), at most 28
  /// bytes together for worlds up to 10,000 px, and 1 KiB for the rest.
  public var helloBytesEstimate: Int { 1024 + 28 * state.balls.count }

  /// Frame: positions as a flat [x0, y0, x1, y1, ...] array to 0.01 px, and the readouts.
  public func writeFrame(into writer: inout JSONWriter) {
    writer.field("count", state.balls.count)
    writer.key("positions")
    writer.beginArray()
    for ball in state.balls {
      writer.number(ball.x, decimals: 2)
      writer.number(ball.y, decimals: 2)
    }
    writer.endArray()
    let totals = totals
    writer.field("energy", totals.energy, decimals: 2)
    writer.key("momentum")
    writer.point(totals.momentum.x, totals.momentum.y, decimals: 2)
    writer.field("collisions", state.collisions)
  }

  /// Kinetic energy Σ ½ m v² (mass × px²/s²) and momentum Σ m v (mass × px/s).
  var totals: (energy: Double, momentum: Vector2) {
    var energy = 0.0
    var momentum = Vector2.zero
    for ball in state.balls {
      energy += 0.5 * ball.mass * (ball.vx * ball.vx + ball.vy * ball.vy)
      momentum.x += ball.mass * ball.vx
      momentum.y += ball.mass * ball.vy
    }
    return (energy, momentum)
  }
}
