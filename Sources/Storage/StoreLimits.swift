/// The bounds that keep the database's size in check.
public struct StoreLimits: Sendable, Equatable {
  /// Sessions kept. Creating one more of a session without an owner evicts the least recently
  /// updated non-running ownerless ones; one with an owner is refused (never another's evicted).
  public var maxSessions = 1000
  /// Sessions one owner (a client: an address, or a browser family of it) may have stored.
  public var maxSessionsPerClient = 1000
  /// Sessions all owners of one address may have stored together.
  public var maxSessionsPerAddress = 1000
  /// Snapshots kept per session, the newest ones.
  public var snapshotsPerSession = 3
  /// High scores kept, the best ones.
  public var maxHighScores = 100
  /// Saved mazes kept; saving a new name beyond it fails.
  public var maxMazes = 500
  /// Saved mazes one client (an address, or a browser family of it) may own.
  public var maxMazesPerClient = 20
  /// Saved mazes all clients of one address may own together.
  public var maxMazesPerAddress = 80
  /// Largest maze encoding (UTF-8 bytes).
  public var maxMazeBytes = 16_384
  /// Recipes one book may hold.
  public var maxRecipesPerBook = 2_000
  /// Largest stored recipe (UTF-8 bytes of its JSON).
  public var maxRecipeBytes = 256 * 1024
  /// Tags one recipe may have, and the characters of each (normalised: `RecipeQuery`).
  public var maxTagsPerRecipe = 32
  public var maxTagCharacters = 64
  /// Recipe books one client may make (each with its owner token).
  public var maxRecipeBooksPerClient = 20
  /// Bytes of recipes (their stored JSON) the books one client made may hold together; a book
  /// made without a client counts alone. Before, only the count per book bounded them: 20 books
  /// of 2,000 recipes of 256 KiB let one client fill 10 GB of disk.
  public var maxRecipeBytesPerClient = 64 << 20
  /// Largest session config (UTF-8 bytes of JSON).
  public var maxConfigBytes = 65_536

  /// Makes limits; every default suits a single-user local server.
  public init() {}
}
