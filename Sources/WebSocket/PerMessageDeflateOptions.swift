/// The server's permessage-deflate policy (RFC 7692 §7.1): what it asks of every client.
/// Compression level and memory are in `WebSocketConfiguration`.
public struct PerMessageDeflateOptions: Sendable, Equatable {
  /// Always answer `server_no_context_takeover`: compress each message on its own.
  public var serverNoContextTakeover = false
  /// Always ask for `client_no_context_takeover`.
  public var clientNoContextTakeover = false
  /// Cap on the server's window, 9...15 bits (nil: 15, or whatever the client asks).
  public var serverMaxWindowBits: Int?
  /// Cap on the client's window, 8...15 bits, sent when the client allows it (nil: none).
  public var clientMaxWindowBits: Int?

  /// 4 KiB windows both ways (12 bits, the Python `websockets` server's), which with memory
  /// level 5 keeps a connection's compressor near 48 KiB instead of 270 KiB, for a somewhat
  /// lower ratio on large messages; and every server message compressed on its own
  /// (`server_no_context_takeover`), as fan-out frames must be anyway, so that a client or a
  /// capture tool can decode any message without the ones before it (docs/protocol.md).
  public static let recommended = PerMessageDeflateOptions(
    serverNoContextTakeover: true, serverMaxWindowBits: 12, clientMaxWindowBits: 12)

  /// A policy; the defaults accept whatever a client offers within RFC 7692.
  public init(
    serverNoContextTakeover: Bool = false, clientNoContextTakeover: Bool = false,
    serverMaxWindowBits: Int? = nil, clientMaxWindowBits: Int? = nil
  ) {
    precondition(serverMaxWindowBits.map { (9...15).contains($0) } ?? true)
    precondition(clientMaxWindowBits.map { (8...15).contains($0) } ?? true)
    self.serverNoContextTakeover = serverNoContextTakeover
    self.clientNoContextTakeover = clientNoContextTakeover
    self.serverMaxWindowBits = serverMaxWindowBits
    self.clientMaxWindowBits = clientMaxWindowBits
  }
}
