/// Who saves a maze: the token that controls it and the client (its address) that counts
/// against the per-client limit.
public struct MazeOwner: Sendable, Equatable {
  /// The secret the saver holds; the store keeps only its hash.
  public var token: String
  /// The client's address, e.g. `127.0.0.1`.
  public var client: String

  /// Makes an owner.
  public init(token: String, client: String) {
    self.token = token
    self.client = client
  }
}
