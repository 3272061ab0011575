/// A sphere of the packing in Peikert's special coordinates: five integers, one per sphere of
/// the starting configuration (the outer sphere and four equal spheres inside it).
///
/// The five starting spheres are the unit vectors. Inverting in the `i`-th of five inversion
/// spheres (each orthogonal to every starting sphere but the `i`-th) maps the packing to
/// itself and, in these coordinates, is the integer reflection `reflected(at: i)`, so every
/// sphere has exact integer coordinates and two spheres are the same exactly when their
/// coordinates are equal.
public struct SpecialCoordinates: Hashable, Sendable {
  public var a: Int
  public var b: Int
  public var c: Int
  public var d: Int
  public var e: Int

  public init(_ a: Int, _ b: Int, _ c: Int, _ d: Int, _ e: Int) {
    (self.a, self.b, self.c, self.d, self.e) = (a, b, c, d, e)
  }

  /// The `index`-th starting sphere (0 is the outer sphere, 1 to 4 the four inside it).
  public static func start(_ index: Int) -> SpecialCoordinates {
    var unit = SpecialCoordinates(0, 0, 0, 0, 0)
    unit[index] = 1
    return unit
  }

  /// Coordinate 0 to 4.
  public subscript(index: Int) -> Int {
    get {
      switch index {
      case 0: a
      case 1: b
      case 2: c
      case 3: d
      default: e
      }
    }
    set {
      switch index {
      case 0: a = newValue
      case 1: b = newValue
      case 2: c = newValue
      case 3: d = newValue
      default: e = newValue
      }
    }
  }

  /// The sphere's image under inversion `index`: that coordinate negated, and its old value
  /// added to the four others. It is an involution.
  public func reflected(at index: Int) -> SpecialCoordinates {
    let pivot = self[index]
    var image = SpecialCoordinates(a + pivot, b + pivot, c + pivot, d + pivot, e + pivot)
    image[index] = -pivot
    return image
  }

  /// Whether `index` is where this sphere's smallest coordinate first occurs. Each sphere is
  /// kept only when made by reflecting at that index, so it is made once, whatever paths
  /// lead to it.
  public func isFirstMinimum(at index: Int) -> Bool {
    let value = self[index]
    for other in 0..<5 where other != index {
      if other < index ? self[other] <= value : self[other] < value { return false }
    }
    return true
  }

  /// The Lorentz product of two spheres in these coordinates: 1 for a sphere with itself, -1
  /// for two tangent spheres (exact, in integers), less than -1 for disjoint ones and between
  /// -1 and 1 for overlapping ones.
  public func product(_ other: SpecialCoordinates) -> Int {
    let dot = a * other.a + b * other.b + c * other.c + d * other.d + e * other.e
    return 2 * dot - (a + b + c + d + e) * (other.a + other.b + other.c + other.d + other.e)
  }

  /// Signed curvature (1 / radius): negative for the outer sphere, which holds the others.
  public var curvature: Double {
    Double(b + c + d + e) * (1 + Self.halfRootSix) - Double(a)
  }

  /// Centre and signed radius in a unit outer sphere centred on the origin.
  public var ball: (x: Double, y: Double, z: Double, radius: Double) {
    let k = curvature
    // NB: adding 0 turns the outer sphere's -0 (0 / -1) into 0.
    let x = Double(-b + c + d - e) * Self.halfRootTwo / k + 0
    let y = Double(b - c + d - e) * Self.halfRootTwo / k + 0
    let z = Double(b + c - d - e) * Self.halfRootTwo / k + 0
    return (x, y, z, 1 / k)
  }

  static let halfRootTwo = 2.0.squareRoot() / 2
  static let halfRootSix = 6.0.squareRoot() / 2
}
