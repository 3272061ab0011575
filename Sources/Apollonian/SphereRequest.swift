/// What `GET /api/spheres/RADIUS/LEVEL[.bin|.json][?surface=1]` asks for.
public struct SphereRequest: Sendable, Hashable {
  /// How the spheres are written.
  public enum Format: String, Sendable, Hashable {
    /// The seed's JSON array.
    case json
    /// The compact little-endian form (`ApollonianPacking.binary`).
    case binary
  }

  /// The outer sphere's radius; every coordinate is scaled by it.
  public var radius: Double
  /// The deepest generation, 0 through `levels.upperBound`.
  public var level: Int
  /// Only the spheres near the outer surface (|centre| + r > 0.99 radius).
  public var surface: Bool
  /// JSON, or binary when the path ends in `.bin` (or the caller chose it from `Accept`).
  public var format: Format
  /// Whether the path named the format (`.bin` or `.json`), which then beats `Accept`.
  public var formatInPath: Bool

  public init(
    radius: Double, level: Int, surface: Bool = false, format: Format = .json,
    formatInPath: Bool = false
  ) {
    (self.radius, self.level, self.surface) = (radius, level, surface)
    (self.format, self.formatInPath) = (format, formatInPath)
  }

  /// The levels served.
  public static let levels = 0...10
  /// The largest radius accepted, so every coordinate stays a finite float32.
  public static let maxRadius = 1e9
}
