extension RouteTable {
  /// A literal first segment of some route's pattern, and the routes a path starting with it may
  /// match; its length and first byte are compared before the text.
  struct FirstSegment: Sendable {
    let literal: String
    let count: Int
    /// The first byte, or -1 for an empty segment.
    let first: Int
    let routes: [Route]

    init(_ literal: String, _ routes: [Route]) {
      self.literal = literal
      self.count = literal.utf8.count
      self.first = literal.utf8.first.map(Int.init) ?? -1
      self.routes = routes
    }
  }
}
