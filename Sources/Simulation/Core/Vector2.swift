/// A 2D vector in world units (px, px/s or px/s²; y grows downwards on screen).
struct Vector2: Codable, Sendable, Equatable {
  var x: Double
  var y: Double

  static let zero = Vector2(x: 0, y: 0)

  static func + (a: Vector2, b: Vector2) -> Vector2 { Vector2(x: a.x + b.x, y: a.y + b.y) }
  static func - (a: Vector2, b: Vector2) -> Vector2 { Vector2(x: a.x - b.x, y: a.y - b.y) }
  static func * (a: Vector2, s: Double) -> Vector2 { Vector2(x: a.x * s, y: a.y * s) }
  static func += (a: inout Vector2, b: Vector2) { a = a + b }
  static func -= (a: inout Vector2, b: Vector2) { a = a - b }

  /// The dot product.
  func dot(_ other: Vector2) -> Double { x * other.x + y * other.y }

  /// The squared length.
  var lengthSquared: Double { x * x + y * y }

  /// The length.
  var length: Double { lengthSquared.squareRoot() }
}
