extension StreetSoccer {
  /// A square of the pitch by column and row, from the top-left corner (x to the right, y
  /// down); x = −1 and x = columns are the squares inside the two goals.
  public struct Square: Hashable, Sendable, Codable, CustomStringConvertible {
    public var x: Int
    public var y: Int

    /// A square by column and row.
    public init(x: Int, y: Int) {
      self.x = x
      self.y = y
    }

    /// `[x, y]`, as in messages.
    public var description: String { "[\(x), \(y)]" }

    /// Squares to walk from one square to the other when diagonal steps count as one.
    public func distance(to other: Square) -> Int {
      max(abs(x - other.x), abs(y - other.y))
    }
  }
}
