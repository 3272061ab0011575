import HTTP

/// The application: turns each request into a reply. Called on an event-loop thread, so it must
/// not block; slow work returns `.later` and finishes elsewhere.
public protocol HTTPHandler: Sendable {
  func handle(_ request: Request, context: RequestContext) -> Reply
}

/// Facts about the connection a request arrived on.
public struct RequestContext: Sendable {
  /// The peer's address, e.g. `127.0.0.1`.
  public var remoteAddress: String
  /// The server's own `host:port` as it listens.
  public var serverAddress: String
  /// The client's address group (`AddressGrouping`), which every per-client bound counts
  /// against: the peer's, or behind a trusted proxy that of the address it forwards for.
  public var client: String
  /// Counts this request's connection against a client family of its address group (the
  /// first time; later calls for the same connection return true); false when that family
  /// holds its share of the group's connections already. Nil outside a server.
  public var claimConnection: (@Sendable (_ family: String) -> Bool)?

  public init(
    remoteAddress: String, serverAddress: String, client: String? = nil,
    claimConnection: (@Sendable (_ family: String) -> Bool)? = nil
  ) {
    self.remoteAddress = remoteAddress
    self.serverAddress = serverAddress
    self.client = client ?? AddressGrouping().group(of: remoteAddress)
    self.claimConnection = claimConnection
  }
}
