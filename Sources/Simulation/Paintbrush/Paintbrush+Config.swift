import JSON

extension Paintbrush {
  /// The canvas and its bounds; defaults give the seed's canvas and brush.
  struct Config: SimulationConfig {
    /// Canvas width in px (64 to 4096).
    var width = 640
    /// Canvas height in px (64 to 4096).
    var height = 480
    /// The brush radius a new page starts with, in px (1 to 50); the seed's is 10.
    var brushRadius = 10.0
    /// Most strokes on the canvas at once (1 to 10000); more are refused until CLEAR or UNDO.
    var maxStrokes = 2_000
    /// Most points on the canvas at once, all strokes together (100 to 250000): the state's
    /// byte bound, since a joiner's `hello` carries every point (250,000 points are about
    /// 3.3 MB of JSON).
    var maxPoints = 100_000

    mutating func visitFields<Visitor: ConfigVisitor>(
      _ visitor: inout Visitor
    ) throws(Visitor.Failure) {
      try visitor.integer("width", &width, in: 64...Input.maxCoordinate)
      try visitor.integer("height", &height, in: 64...Input.maxCoordinate)
      try visitor.number("brushRadius", &brushRadius, in: 1...Input.maxRadius)
      try visitor.integer("maxStrokes", &maxStrokes, in: 1...10_000)
      try visitor.integer("maxPoints", &maxPoints, in: 100...250_000)
    }

    func validate() throws(SimulationError) {}
  }
}
