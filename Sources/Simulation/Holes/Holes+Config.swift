import JSON

extension Holes {
  /// What a holes game is made of; defaults are the seed's constants.
  struct Config: SimulationConfig {
    /// Table width in px (100 to 4000).
    var width = 320.0
    /// Table height in px (100 to 4000).
    var height = 480.0
    /// Ball radius in px (2 to 100).
    var ballRadius = 15.0
    /// Coefficient of restitution against the table edges (0 to 1).
    var restitution = 0.45
    /// Acceleration per g of tilt or pull in px/s² (0 to 20000); the seed's per-tick update
    /// gives 360.
    var gravity = 360.0
    /// Hole radius at level 1 in px (2 to 200).
    var holeRadius = 25.0
    /// Hole centres at rotation 0, as fractions of the width and height: `[[x, y], ...]`
    /// (1 to 12 holes, each fraction 0 to 1).
    var holes: [Vector2] = [
      Vector2(x: 0.2, y: 0.2), Vector2(x: 0.8, y: 0.2), Vector2(x: 0.5, y: 0.5),
      Vector2(x: 0.2, y: 0.8), Vector2(x: 0.8, y: 0.8),
    ]
    /// Rotation of the hole pattern about the table centre in rad per tick at the start, and
    /// the speed-up per point (0 to 0.1); the seed's is (1/π)/1000.
    var rotationStep = 1 / (1_000 * Double.pi)
    /// A hole's pull in g at its rim; it grows as 1/(d/r)² inward (0 to 10).
    var pullStrength = 0.5
    /// Velocity kept per tick by a ball inside a hole's radius (0 to 1).
    var holeDamping = 0.8
    /// A ball closer to a hole's centre than this fraction of its radius is lost (0.01 to 0.9).
    var captureFraction = 0.1
    /// Side of the flag at the top-left corner in px (5 to 200).
    var flagSize = 30.0
    /// The ball scores when its centre is within this many ball radii of the top-left corner
    /// on both axes (1 to 10).
    var flagReach = 1.1
    /// Balls per game (1 to 99).
    var balls = 3
    /// Ticks the game pauses after a score or a lost ball (0 to 600).
    var pauseTicks = 60
    /// Points per level (1 to 100).
    var pointsPerLevel = 3
    /// Growth of the hole radius per level in px (0 to 50).
    var holeGrowth = 3.0
    /// Largest hole radius in px (2 to 200, at least `holeRadius`).
    var maxHoleRadius = 40.0

    mutating func visitFields<Visitor: ConfigVisitor>(
      _ visitor: inout Visitor
    ) throws(Visitor.Failure) {
      try visitor.number("width", &width, in: 100...4_000)
      try visitor.number("height", &height, in: 100...4_000)
      try visitor.number("ballRadius", &ballRadius, in: 2...100)
      try visitor.number("restitution", &restitution, in: 0...1)
      try visitor.number("gravity", &gravity, in: 0...20_000)
      try visitor.number("holeRadius", &holeRadius, in: 2...200)
      try visitor.custom("holes", &holes, decode: Self.decodeHoles, encode: Self.encodeHoles)
      try visitor.number("rotationStep", &rotationStep, in: 0...0.1)
      try visitor.number("pullStrength", &pullStrength, in: 0...10)
      try visitor.number("holeDamping", &holeDamping, in: 0...1)
      try visitor.number("captureFraction", &captureFraction, in: 0.01...0.9)
      try visitor.number("flagSize", &flagSize, in: 5...200)
      try visitor.number("flagReach", &flagReach, in: 1...10)
      try visitor.integer("balls", &balls, in: 1...99)
      try visitor.integer("pauseTicks", &pauseTicks, in: 0...600)
      try visitor.integer("pointsPerLevel", &pointsPerLevel, in: 1...100)
      try visitor.number("holeGrowth", &holeGrowth, in: 0...50)
      try visitor.number("maxHoleRadius", &maxHoleRadius, in: 2...200)
    }

    func validate() throws(SimulationError) {
      guard maxHoleRadius >= holeRadius else {
        throw SimulationError(field: "maxHoleRadius", message: "must be at least holeRadius")
      }
      guard width >= 4 * ballRadius, height >= 4 * ballRadius else {
        throw SimulationError(
          field: "ballRadius",
          message: "must be at most \(FieldReader.format(min(width, height) / 4)) for this table")
      }
    }

    private static func decodeHoles(_ value: JSONValue, field: String) throws(SimulationError)
      -> [Vector2]
    {
      let problem = "must be an array of 1 to 12 [x, y] pairs of fractions from 0 to 1"
      guard let pairs = value.arrayValue, (1...12).contains(pairs.count) else {
        throw SimulationError(field: field, message: problem)
      }
      var holes: [Vector2] = []
      for pair in pairs {
        guard let x = pair[0]?.doubleValue, let y = pair[1]?.doubleValue,
          pair.arrayValue?.count == 2,
          (0...1).contains(x), (0...1).contains(y)
        else { throw SimulationError(field: field, message: problem) }
        holes.append(Vector2(x: x, y: y))
      }
      return holes
    }

    private static func encodeHoles(_ holes: [Vector2]) -> JSONValue {
      .array(holes.map { [.number($0.x), .number($0.y)] })
    }
  }
}
