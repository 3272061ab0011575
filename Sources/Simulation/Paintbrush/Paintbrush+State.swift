extension Paintbrush {
  /// The picture: strokes in the order they began and marks in the order they were painted.
  struct State: Codable, Sendable, Equatable {
    /// Strokes still on the canvas, oldest first.
    var strokes: [Stroke] = []
    /// Every batch of points still on the canvas, in painting order; drawn in this order.
    var marks: [Mark] = []
    /// The id the next stroke gets; ids are never reused, not even after CLEAR.
    var nextStroke = 1
    /// Changes to the picture so far; each `paint` event's ops raise it by one each.
    var version = 0
    /// Points in `marks`, all together.
    var pointCount = 0
  }
}
