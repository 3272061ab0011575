extension BouncingBalls {
  /// The narrow phase: resolves one pair of balls, given the settings it needs.
  struct Contact {
    let restitution: Double
    let periodic: Bool
    let width: Double
    let height: Double

    /// Whether two balls whose centres differ by (dx, dy) touch.
    @inline(__always)
    func overlaps(_ dx: Double, _ dy: Double, reach: Double) -> Bool {
      var dx = dx
      var dy = dy
      if periodic {
        dx = BouncingBalls.nearestImage(dx, period: width)
        dy = BouncingBalls.nearestImage(dy, period: height)
      }
      return dx * dx + dy * dy < reach * reach
    }

    /// Resolves a touching pair; returns the normal approach speed (0 if separating).
    @inline(__always)
    func resolve(_ first: Int, _ second: Int, in balls: UnsafeMutableBufferPointer<Ball>) -> Double
    {
      var dx = balls[second].x - balls[first].x
      var dy = balls[second].y - balls[first].y
      if periodic {
        dx = BouncingBalls.nearestImage(dx, period: width)
        dy = BouncingBalls.nearestImage(dy, period: height)
      }
      let reach = balls[first].radius + balls[second].radius
      let distanceSquared = dx * dx + dy * dy
      var a = balls[first]
      var b = balls[second]
      // Coincident centres have no line of centres; separate them along x.
      let distance = distanceSquared.squareRoot()
      let nx = distance > 0 ? dx / distance : 1
      let ny = distance > 0 ? dy / distance : 0
      let inverseA = 1 / a.mass
      let inverseB = 1 / b.mass
      let inverseSum = inverseA + inverseB

      // Velocity: an impulse along the normal only (frictionless) if the balls approach.
      let approach = (b.vx - a.vx) * nx + (b.vy - a.vy) * ny
      var impact = 0.0
      if approach < 0 {
        let impulse = -(1 + restitution) * approach / inverseSum
        a.vx -= impulse * inverseA * nx
        a.vy -= impulse * inverseA * ny
        b.vx += impulse * inverseB * nx
        b.vy += impulse * inverseB * ny
        impact = -approach
      }

      // Position: split the overlap by inverse mass, which keeps the centre of mass still.
      let overlap = reach - distance
      let shareA = overlap * inverseA / inverseSum
      let shareB = overlap * inverseB / inverseSum
      a.x -= nx * shareA
      a.y -= ny * shareA
      b.x += nx * shareB
      b.y += ny * shareB
      balls[first] = a
      balls[second] = b
      return impact
    }
  }
}
