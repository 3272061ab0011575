/// A maze saved by name.
public struct SavedMaze: Sendable, Equatable {
  /// Its unique name, validated by `NameValidator`.
  public var name: String
  /// The solid cells in the maze model's own text encoding.
  public var cells: String
  /// When it was first saved (unix seconds).
  public var createdAt: Double
  /// When it was last saved (unix seconds).
  public var updatedAt: Double

  /// Makes a saved maze.
  public init(name: String, cells: String, createdAt: Double, updatedAt: Double) {
    self.name = name
    self.cells = cells
    self.createdAt = createdAt
    self.updatedAt = updatedAt
  }
}
