import JSON

extension Paintbrush {
  /// One batch of a stroke's points, drawn as a round-capped line of `radius` (a dot when it
  /// has one point). A continuing batch starts at the stroke's previous last point.
  struct Mark: Codable, Sendable, Equatable {
    /// The stroke it belongs to.
    var stroke: Int
    /// `#rrggbb`.
    var color: String
    /// Brush radius in px.
    var radius: Double
    /// `[x0, y0, x1, y1, ...]` in px.
    var points: [Double]

    /// `{"stroke": ID, "color": ..., "radius": R, "points": [...]}`.
    func write(into writer: inout JSONWriter) {
      writer.beginObject()
      writer.field("stroke", stroke)
      writer.field("color", color)
      writer.field("radius", radius)
      writer.key("points")
      writer.beginArray()
      for value in points { writer.number(value, decimals: 1) }
      writer.endArray()
      writer.endObject()
    }

    /// The mark as a `mark` op of a `paint` event.
    var op: JSONValue {
      [
        "op": "mark", "stroke": .number(stroke), "color": .string(color),
        "radius": .number(radius), "points": .array(points.map(JSONValue.number)),
      ]
    }
  }
}
