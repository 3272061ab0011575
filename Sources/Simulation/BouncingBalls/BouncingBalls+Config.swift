extension BouncingBalls {
  /// What a bouncing-balls session is made of; every field has a default.
  struct Config: SimulationConfig {
    /// World width in px (100 to 10000).
    var width = 320.0
    /// World height in px (100 to 10000).
    var height = 480.0
    /// Balls at the start (1 to 10000).
    var balls = 2
    /// Smallest starting radius in px (1 to 100); also the smallest radius `add-ball` accepts.
    var radiusMin = 15.0
    /// Largest starting radius in px (1 to 100, at least `radiusMin`).
    var radiusMax = 15.0
    /// Smallest starting speed in px/s (0 to `speedMax`).
    var speedMin = 17.0
    /// Largest starting speed in px/s (0 to `maxSpeed`); the seed's fast ball moves 2 px a tick.
    var speedMax = 170.0
    /// Coefficient of restitution for ball–ball and ball–wall contacts (0 to 1; 1 is elastic).
    var restitution = 1.0
    /// `"walls"` (a closed box) or `"periodic"` (a torus: leaving one side re-enters the other).
    var boundary = "walls"
    /// `"area"`: mass = π r² (px², density 1); `"equal"`: every ball has mass 1.
    var mass = "area"
    /// Hard speed cap in px/s (1 to 20000), applied after collisions as Box2D caps translation.
    var maxSpeed = 2000.0
    /// Most balls the session may hold after `add-ball` (1 to 10000, at least `balls`).
    var maxBalls = 10_000

    mutating func visitFields<Visitor: ConfigVisitor>(
      _ visitor: inout Visitor
    ) throws(Visitor.Failure) {
      try visitor.number("width", &width, in: 100...10_000)
      try visitor.number("height", &height, in: 100...10_000)
      try visitor.integer("balls", &balls, in: 1...10_000)
      try visitor.number("radiusMin", &radiusMin, in: 1...100)
      try visitor.number("radiusMax", &radiusMax, in: 1...100)
      try visitor.number("speedMin", &speedMin, in: 0...20_000)
      try visitor.number("speedMax", &speedMax, in: 0...20_000)
      try visitor.number("restitution", &restitution, in: 0...1)
      try visitor.choice("boundary", &boundary, among: ["walls", "periodic"])
      try visitor.choice("mass", &mass, among: ["area", "equal"])
      try visitor.number("maxSpeed", &maxSpeed, in: 1...20_000)
      try visitor.integer("maxBalls", &maxBalls, in: 1...10_000)
    }

    func validate() throws(SimulationError) {
      guard radiusMax >= radiusMin else {
        throw SimulationError(field: "radiusMax", message: "must be at least radiusMin")
      }
      guard speedMax >= speedMin else {
        throw SimulationError(field: "speedMax", message: "must be at least speedMin")
      }
      guard speedMax <= maxSpeed else {
        throw SimulationError(field: "speedMax", message: "must be at most maxSpeed")
      }
      guard maxBalls >= balls else {
        throw SimulationError(field: "maxBalls", message: "must be at least balls")
      }
      // A periodic world must be wide enough that each pair of balls has one nearest image.
      let side = isPeriodic ? 6 * radiusMax : 2 * radiusMax
      guard width >= side, height >= side else {
        throw SimulationError(
          field: "radiusMax",
          message: "must be at most \(FieldReader.format(min(width, height) / (side / radiusMax))) "
            + "for a \(Int(width))x\(Int(height)) \(boundary) world")
      }
      let limit =
        Self.substepLimit * radiusMin * BouncingBalls.travelPerSubstep / BouncingBalls.tickDuration
      guard maxSpeed <= limit else {
        throw SimulationError(
          field: "maxSpeed",
          message: "must be at most \(FieldReader.format(limit)) px/s for radiusMin "
            + "\(FieldReader.format(radiusMin)) (\(Int(Self.substepLimit)) substeps a tick)")
      }
      let capacity = latticeColumns * latticeRows
      guard balls <= capacity else {
        throw SimulationError(
          field: "balls",
          message: "must be at most \(capacity) for balls of radius up to "
            + "\(FieldReader.format(radiusMax)) in a \(Int(width))x\(Int(height)) world")
      }
    }

    /// Most substeps one tick may need; bounds the cost of the fastest allowed ball.
    static let substepLimit = 64.0

    var isPeriodic: Bool { boundary == "periodic" }

    /// Spacing of the start lattice: the largest ball plus a 2 px gap.
    var latticeSpacing: Double { 2 * radiusMax + 2 }
    var latticeColumns: Int { Int(width / latticeSpacing) }
    var latticeRows: Int { Int(height / latticeSpacing) }

    /// The mass of a ball of `radius` under this config.
    func mass(radius: Double) -> Double {
      mass == "equal" ? 1 : Double.pi * radius * radius
    }
  }
}
