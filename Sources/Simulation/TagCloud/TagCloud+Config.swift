import JSON

extension TagCloud {
  /// What a tag cloud is made of; every field has a default.
  struct Config: SimulationConfig {
    /// The labels: strings or `{text, weight?, url?}` objects (1 to 200).
    var tags: [Tag] = TagCloud.defaultTags
    /// View width in px (50 to 4000).
    var width = 400.0
    /// View height in px (50 to 4000).
    var height = 400.0
    /// Sphere radius in px (10 to 2000); a drag of this many px turns the sphere 1 rad.
    var radius = 150.0
    /// Spin kept per tick after a drag is released (0 to 1; 0 stops at once).
    var damping = 0.95
    /// Idle spin about the vertical axis in rad/s (-5 to 5), which inertia settles back to.
    var autoRotate = 0.3
    /// Opacity of the farthest tag (0 to 1); the nearest is 1.
    var minOpacity = 0.25

    mutating func visitFields<Visitor: ConfigVisitor>(
      _ visitor: inout Visitor
    ) throws(Visitor.Failure) {
      try visitor.custom("tags", &tags, decode: Tag.list, encode: { .array($0.map(\.json)) })
      try visitor.number("width", &width, in: 50...4_000)
      try visitor.number("height", &height, in: 50...4_000)
      try visitor.number("radius", &radius, in: 10...2_000)
      try visitor.number("damping", &damping, in: 0...1)
      try visitor.number("autoRotate", &autoRotate, in: -5...5)
      try visitor.number("minOpacity", &minOpacity, in: 0...1)
    }

    func validate() throws(SimulationError) {}
  }

  /// The gallery's own tags, linking to its demos.
  static let defaultTags: [Tag] = [
    Tag(text: "Playfield", weight: 3, url: "/"),
    Tag(text: "Bouncing balls", weight: 2, url: "/demos/bouncing-balls"),
    Tag(text: "Maze", weight: 2, url: "/demos/maze"),
    Tag(text: "Holes", weight: 2, url: "/demos/holes"),
    Tag(text: "Tag cloud", weight: 2, url: "/demos/tag-cloud"),
    Tag(text: "Mandelbrot", weight: 2, url: "/demos/mandelbrot"),
    Tag(text: "Sessions", weight: 1.5, url: "/sessions"),
    Tag(text: "Embedding", weight: 1.5, url: "/embed/tag-cloud"),
    Tag(text: "Health", weight: 1.5, url: "/healthz"),
    Tag(text: "SpaceBalls", weight: 1.5, url: "/demos/bouncing-balls"),
    Tag(text: "Return to HOLES", weight: 1.5, url: "/demos/holes"),
    Tag(text: "Quadrants", weight: 1.5, url: "/demos/mandelbrot?journey=1-4-4-1"),
    Tag(text: "Spiral", weight: 1.5, url: "/demos/tag-cloud?new"),
    Tag(text: "Swift"), Tag(text: "WebSocket"), Tag(text: "HTTP/1.1"), Tag(text: "SQLite"),
    Tag(text: "PNG"), Tag(text: "zlib"), Tag(text: "RFC 6455"), Tag(text: "RFC 7692"),
    Tag(text: "RFC 8259"), Tag(text: "60 Hz"), Tag(text: "Deterministic"),
  ]
}
