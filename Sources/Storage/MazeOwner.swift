/// Who saves a maze: the token that controls it, the client that counts against the per-client
/// limit, and its address, whose clients together count against the per-address limit.
public struct MazeOwner: Sendable, Equatable {
  /// The secret the saver holds; the store keeps only its hash.
  public var token: String
  /// The client: its address, e.g. `127.0.0.1`, or a browser family of it.
  public var client: String
  /// The client's address; `client` itself when nil.
  public var address: String

  /// Makes an owner; without an `address`, the client is its address.
  public init(token: String, client: String, address: String? = nil) {
    self.token = token
    self.client = client
    self.address = address ?? client
  }
}
