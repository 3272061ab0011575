/// The orbit Z_0 = 0, Z_(m+1) = Z_m² + C of one reference point C, iterated in `BigFixed` and
/// stored as doubles (|Z| ≤ 2 until the last entry, which may be the first past the bailout).
public struct ReferenceOrbit: Sendable {
  /// Real parts of Z_0 ... Z_last.
  public let x: [Double]
  /// Imaginary parts of Z_0 ... Z_last.
  public let y: [Double]
  /// Z_last in extended form, with its digits even where the doubles underflow.
  let end: ExtendedComplex

  /// The index of the last stored value: the cap, or where the orbit left |Z|² ≤ 4.
  public var last: Int { x.count - 1 }

  /// Updates between two looks at the cancellation: a fraction of a millisecond even with the
  /// widest numbers (2,073 bits at level 2,000).
  static let checkInterval = 64

  /// Iterates C = (cx, cy) exactly (`BigFixed`'s truncated products, by `OrbitStepper`) up to
  /// `maxIterations` updates.
  public init(cx: BigFixed, cy: BigFixed, maxIterations: Int) {
    // NB: without a cancellation the loop cannot stop early, so it never throws.
    try! self.init(cx: cx, cy: cy, maxIterations: maxIterations, cancellation: nil)
  }

  /// The same, stopping with `RenderStopped` when `cancellation` says so.
  init(
    cx: BigFixed, cy: BigFixed, maxIterations: Int, cancellation: RenderCancellation?
  ) throws(RenderStopped) {
    var stepper = OrbitStepper(cx: cx, cy: cy)
    var xs = [0.0]
    var ys = [0.0]
    xs.reserveCapacity(maxIterations + 1)
    ys.reserveCapacity(maxIterations + 1)
    for n in 0..<maxIterations {
      if n % Self.checkInterval == 0 { try cancellation?.check() }
      stepper.step()
      let (dx, dy) = stepper.doubles
      xs.append(dx)
      ys.append(dy)
      if dx * dx + dy * dy > 4 { break }
    }
    x = xs
    y = ys
    let (zx, zy) = stepper.z
    end = ExtendedComplex(zx, zy)
  }
}
