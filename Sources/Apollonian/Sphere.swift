/// One sphere of a packing: centre, radius and generation level.
public struct Sphere: Sendable, Equatable {
  public var x: Double
  public var y: Double
  public var z: Double
  /// Negative for the outer sphere (it holds the others), positive for the rest.
  public var radius: Double
  /// 0 for the outer sphere, 1 for the four starting spheres inside it, n + 1 for spheres of
  /// generation n (the seed's level colours are indexed by it).
  public var level: UInt8

  public init(x: Double, y: Double, z: Double, radius: Double, level: UInt8) {
    (self.x, self.y, self.z, self.radius, self.level) = (x, y, z, radius, level)
  }

  /// Distance from the centre of the outer sphere to the far side of this one, |centre| + r.
  public var reach: Double { (x * x + y * y + z * z).squareRoot() + radius }
}
