/// An Apollonian sphere packing inside a unit sphere, made by Peikert's inversion method
/// (seed 000, DESIGN.md "Apollonian spheres").
///
/// It starts from the outer sphere and four equal spheres inside it, all mutually tangent.
/// Each sphere of generation n spawns up to four of generation n + 1 by inversion: reflecting
/// one of its five special coordinates, never the one that made it. A child is kept when the
/// reflected coordinate is where its smallest coordinate first occurs (so each sphere is made
/// once: the coordinates are integers, no rounding decides) and when its radius is at least
/// `minimumRadius`; a sphere below it ends its branch. Spheres come in generation order.
public struct ApollonianPacking: Sendable {
  /// The deepest generation made; generation 0 is the five starting spheres.
  public let level: Int
  /// Smallest radius kept, as a fraction of the outer radius.
  public let minimumRadius: Double
  /// The outer sphere first, then generation by generation.
  public let spheres: [Sphere]
  /// How many spheres each generation holds (the outer sphere counts in generation 0).
  public let generationCounts: [Int]

  /// The seed service's smallest radius: its level 10 holds 383,892 spheres.
  public static let seedMinimumRadius = 0.001

  /// Makes generations 0 through `level` (at least 0) of the packing.
  public init(level: Int, minimumRadius: Double = Self.seedMinimumRadius) {
    self.level = max(0, level)
    self.minimumRadius = minimumRadius
    var spheres: [Sphere] = []
    var counts: [Int] = []
    Self.walk(level: self.level, minimumRadius: minimumRadius) { coordinates, generation in
      let ball = coordinates.ball
      let level = coordinates == .start(0) ? 0 : generation + 1
      spheres.append(
        Sphere(x: ball.x, y: ball.y, z: ball.z, radius: ball.radius, level: UInt8(level)))
      if counts.count <= generation { counts.append(0) }
      counts[generation] += 1
    }
    self.spheres = spheres
    self.generationCounts = counts
  }

  /// Calls `visit` with every sphere's special coordinates and generation, in generation
  /// order, the outer sphere first.
  public static func walk(
    level: Int, minimumRadius: Double,
    _ visit: (_ coordinates: SpecialCoordinates, _ generation: Int) -> Void
  ) {
    // A frontier entry is a sphere and the coordinate that made it (its parent's inversion).
    var frontier: [(SpecialCoordinates, Int)] = []
    for index in 0..<5 {
      let start = SpecialCoordinates.start(index)
      visit(start, 0)
      frontier.append((start, index))
    }
    // NB: generation 1 reflects each starting sphere at its own index, as the seed does.
    var generation = 1
    var first = true
    while generation <= level, !frontier.isEmpty {
      var next: [(SpecialCoordinates, Int)] = []
      next.reserveCapacity(frontier.count * 4)
      for (parent, made) in frontier {
        for index in 0..<5 where first ? index == made : index != made {
          let child = parent.reflected(at: index)
          guard child.isFirstMinimum(at: index) else { continue }
          guard abs(1 / child.curvature) >= minimumRadius else { continue }
          visit(child, generation)
          next.append((child, index))
        }
      }
      frontier = next
      generation += 1
      first = false
    }
  }
}
