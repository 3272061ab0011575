extension Paintbrush {
  /// One stroke: who painted it (never sent to clients) and how to find its marks.
  struct Stroke: Codable, Sendable, Equatable {
    /// The public id, shared by the stroke's marks.
    var id: Int
    /// The painter's id from the input.
    var author: String
    /// The painter's own number for the stroke.
    var number: Int
  }
}
