extension Demo {
  /// A natural embed frame in CSS pixels: the drawing plus a toolbar line.
  struct Frame: Sendable, Equatable {
    var width: Int
    var height: Int

    init(_ width: Int, _ height: Int) {
      self.width = width
      self.height = height
    }

    /// The frame of a demo that names none.
    static let standard = Frame(640, 480)

    /// The frame scaled down (never up, aspect kept) to fit `bounds`.
    func fitted(within bounds: Frame) -> Frame {
      let scale = min(
        1, Double(bounds.width) / Double(width), Double(bounds.height) / Double(height))
      return Frame(
        max(1, Int((Double(width) * scale).rounded(.down))),
        max(1, Int((Double(height) * scale).rounded(.down))))
    }
  }
}
