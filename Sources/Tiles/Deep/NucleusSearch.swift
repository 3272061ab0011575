import Foundation

/// Finds a reference that never runs out: the nucleus of the lowest-period minibrot near an
/// anchor, as peer deep-zoom renderers do (Fractalshades, rust-fractal, Kalles Fraktaler).
///
/// 1. **Period**, by ball arithmetic along the anchor centre's orbit: the first n with
///    |Z_n| < |dZ_n/dC|·r, r the anchor's half-diagonal. To first order the disc of radius r
///    about the centre then maps onto a disc around 0, so some c in it has z_n(c) = 0: a
///    nucleus of period n (or a divisor of n).
/// 2. **Newton's method** on z_p(C + δ) = 0 by perturbation around the centre's orbit, in
///    extended doubles: cheap (p double updates a step), good to about 2^-48 of the anchor.
///    From the centre it may wander off (in seahorse valley at 1e-30 it does for the period
///    of the whole ball); then a ball of a quarter the radius is tried, and so on.
/// 3. **Check and polish in `BigFixed`**: the point, rounded to the reference grid
///    (`PerturbationViewport.fineBits`), is iterated exactly for p updates. It is the
///    reference when the orbit stays bounded and Z_p is within 2^-24 of an offset unit of the
///    nucleus (|Z_p / dZ_p/dC|); else one exact Newton step moves it, up to `polishes` times.
///
/// Such an orbit is one period of a cycle: a pixel that reaches its end rebases onto its start,
/// and since Z_p is as good as 0 there, it loses nothing by it. So the orbit serves pixels of
/// any count, and costs p updates, not the cap.
struct NucleusSearch {
  /// Newton steps by perturbation before giving up.
  static let newtonSteps = 48
  /// Exact Newton steps after the first exact orbit.
  static let polishes = 2
  /// The balls tried, as log2 of how much smaller than the anchor's half-diagonal.
  static let shrinks: [Double] = [0, 2, 4, 6, 8]
  /// How close to the nucleus the reference must be, as log2 of offset units.
  static let closeness = -24.0
  /// How far past the reach (log2) Newton's method may wander before it settles.
  static let wander = 5.0

  let viewport: PerturbationViewport
  /// The orbit of the anchor's centre, iterated until it escaped (it did not last the cap).
  let centre: ReferenceOrbit

  /// log2 of the ball's radius: the anchor's half-diagonal, 3·halfSide·√2 offset units.
  var log2Radius: Double {
    log2(3 * Double(PerturbationViewport.halfSide) * 2.0.squareRoot())
      + Double(viewport.unitExponent)
  }

  /// The nucleus as a reference point (fine numerators from the centre), its exact orbit of
  /// one period, and the exact updates spent; nil when there is none to be had near the
  /// anchor.
  func find(cancellation: RenderCancellation?) throws(RenderStopped) -> (
    offset: (x: Int, y: Int), orbit: ReferenceOrbit, updates: Int
  )? {
    var found: (period: Int, delta: ExtendedComplex)?
    for shrink in Self.shrinks {
      guard let period = period(radius: log2Radius - shrink) else { continue }
      if let delta = newton(period: period) {
        found = (period, delta)
        break
      }
    }
    guard let (period, delta) = found,
      var offset = delta.rounded(
        inUnitsOf: viewport.fineExponent, below: PerturbationViewport.referenceReach)
    else { return nil }
    var updates = 0
    for attempt in 0...Self.polishes {
      try cancellation?.check()
      let point = viewport.point(at: offset)
      let orbit = try ReferenceOrbit(
        cx: point.x, cy: point.y, maxIterations: period, cancellation: cancellation)
      updates += orbit.last
      guard orbit.last == period else { return nil }
      let correction = orbit.end / Self.derivative(orbit)
      if correction.log2Norm <= Double(viewport.unitExponent) + Self.closeness {
        return (offset, orbit, updates)
      }
      guard attempt < Self.polishes,
        let step = correction.rounded(
          inUnitsOf: viewport.fineExponent, below: PerturbationViewport.referenceReach),
        step != (0, 0),
        abs(Double(offset.x - step.x)) < PerturbationViewport.referenceReach,
        abs(Double(offset.y - step.y)) < PerturbationViewport.referenceReach
      else { return nil }
      offset = (offset.x - step.x, offset.y - step.y)
    }
    return nil
  }

  /// The first n ≥ 1 with |Z_n| < |dZ_n/dC|·r along the centre's orbit (`radius` is log2 r),
  /// or nil if it escapes first.
  func period(radius: Double) -> Int? {
    var derivative = ExtendedComplex.zero
    let one = ExtendedComplex(1, 0)
    for n in 0..<centre.last {
      let (x, y) = (centre.x[n], centre.y[n])
      derivative = derivative.scaled(2 * x, 2 * y) + one
      let (nx, ny) = (centre.x[n + 1], centre.y[n + 1])
      if log2(abs(nx) + abs(ny)) < derivative.log2Norm + radius { return n + 1 }
    }
    return nil
  }

  /// Newton's method for z_period(C + δ) = 0, δ from the centre C, by perturbation in
  /// extended doubles; nil when it does not settle within reach of the anchor.
  func newton(period: Int) -> ExtendedComplex? {
    let one = ExtendedComplex(1, 0)
    let reach = log2(PerturbationViewport.referenceReach) + Double(viewport.fineExponent)
    let settled = log2Radius - 48
    var delta = ExtendedComplex.zero
    for _ in 0..<Self.newtonSteps {
      var d = ExtendedComplex.zero
      var derivative = ExtendedComplex.zero
      for n in 0..<period {
        let reference = ExtendedComplex(centre.x[n], centre.y[n])
        derivative = ((reference + d) * derivative).scaled(2, 0) + one
        d = (reference.scaled(2, 0) + d) * d + delta
      }
      let value = ExtendedComplex(centre.x[period], centre.y[period]) + d
      let correction = value / derivative
      delta = delta - correction
      guard delta.log2Norm < reach + Self.wander else { return nil }
      if correction.isZero || correction.log2Norm < settled {
        return delta.log2Norm < reach ? delta : nil
      }
    }
    return nil
  }

  /// dZ_n/dC at the orbit's last index n.
  static func derivative(_ orbit: ReferenceOrbit) -> ExtendedComplex {
    var derivative = ExtendedComplex.zero
    let one = ExtendedComplex(1, 0)
    for n in 0..<orbit.last {
      derivative = derivative.scaled(2 * orbit.x[n], 2 * orbit.y[n]) + one
    }
    return derivative
  }
}
