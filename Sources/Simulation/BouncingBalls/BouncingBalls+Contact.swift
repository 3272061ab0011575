extension BouncingBalls {
  /// The narrow phase: resolves one pair of balls, given the settings it needs.
  struct Contact {
    let restitution: Double
    let periodic: Bool
    let width: Double
    let height: Double

    /// Resolves the pair if it overlaps; returns the normal approach speed (0 if separating),
    /// or nil if the balls do not touch.
    func resolve(_ first: Int, _ second: Int, in balls: inout [Ball]) -> Double? {
      var dx = balls[second].x - balls[first].x
      var dy = balls[second].y - balls[first].y
      if periodic {
        dx = BouncingBalls.nearestImage(dx, period: width)
        dy = BouncingBalls.nearestImage(dy, period: height)
      }
      let reach = balls[first].radius + balls[second].radius
      let distanceSquared = dx * dx + dy * dy
      guard distanceSquared < reach * reach else { return nil }
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
