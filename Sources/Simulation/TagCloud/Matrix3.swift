/// A 3x3 rotation matrix, row-major; `apply` maps sphere points to view space (x right,
/// y down, z towards the viewer).
struct Matrix3: Codable, Sendable, Equatable {
  var m00 = 1.0
  var m01 = 0.0
  var m02 = 0.0
  var m10 = 0.0
  var m11 = 1.0
  var m12 = 0.0
  var m20 = 0.0
  var m21 = 0.0
  var m22 = 1.0

  static let identity = Matrix3()

  /// Turns the sphere about the view's y axis by `angle` rad: positive moves the front right.
  static func yaw(_ angle: Double) -> Matrix3 {
    let c = DeterministicMath.cos(angle)
    let s = DeterministicMath.sin(angle)
    return Matrix3(m00: c, m01: 0, m02: s, m10: 0, m11: 1, m12: 0, m20: -s, m21: 0, m22: c)
  }

  /// Turns the sphere about the view's x axis by `angle` rad: positive moves the front down.
  static func pitch(_ angle: Double) -> Matrix3 {
    let c = DeterministicMath.cos(angle)
    let s = DeterministicMath.sin(angle)
    return Matrix3(m00: 1, m01: 0, m02: 0, m10: 0, m11: c, m12: s, m20: 0, m21: -s, m22: c)
  }

  /// The product `a · b` (apply b, then a).
  static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
    Matrix3(
      m00: a.m00 * b.m00 + a.m01 * b.m10 + a.m02 * b.m20,
      m01: a.m00 * b.m01 + a.m01 * b.m11 + a.m02 * b.m21,
      m02: a.m00 * b.m02 + a.m01 * b.m12 + a.m02 * b.m22,
      m10: a.m10 * b.m00 + a.m11 * b.m10 + a.m12 * b.m20,
      m11: a.m10 * b.m01 + a.m11 * b.m11 + a.m12 * b.m21,
      m12: a.m10 * b.m02 + a.m11 * b.m12 + a.m12 * b.m22,
      m20: a.m20 * b.m00 + a.m21 * b.m10 + a.m22 * b.m20,
      m21: a.m20 * b.m01 + a.m21 * b.m11 + a.m22 * b.m21,
      m22: a.m20 * b.m02 + a.m21 * b.m12 + a.m22 * b.m22)
  }

  /// The matrix applied to the point (x, y, z).
  func apply(_ x: Double, _ y: Double, _ z: Double) -> (x: Double, y: Double, z: Double) {
    (m00 * x + m01 * y + m02 * z, m10 * x + m11 * y + m12 * z, m20 * x + m21 * y + m22 * z)
  }

  /// The nearest rotation by Gram–Schmidt on the rows, undoing rounding drift.
  func orthonormalized() -> Matrix3 {
    func normalized(_ v: (Double, Double, Double)) -> (Double, Double, Double) {
      let length = (v.0 * v.0 + v.1 * v.1 + v.2 * v.2).squareRoot()
      return (v.0 / length, v.1 / length, v.2 / length)
    }
    let r0 = normalized((m00, m01, m02))
    let along = m10 * r0.0 + m11 * r0.1 + m12 * r0.2
    let r1 = normalized((m10 - along * r0.0, m11 - along * r0.1, m12 - along * r0.2))
    let r2 = (r0.1 * r1.2 - r0.2 * r1.1, r0.2 * r1.0 - r0.0 * r1.2, r0.0 * r1.1 - r0.1 * r1.0)
    return Matrix3(
      m00: r0.0, m01: r0.1, m02: r0.2, m10: r1.0, m11: r1.1, m12: r1.2, m20: r2.0, m21: r2.1,
      m22: r2.2)
  }

  /// The nine entries, row by row.
  var entries: [Double] { [m00, m01, m02, m10, m11, m12, m20, m21, m22] }
}
