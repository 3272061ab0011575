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

  public init(remoteAddress: String, serverAddress: String) {
    self.remoteAddress = remoteAddress
    self.serverAddress = serverAddress
  }
}
