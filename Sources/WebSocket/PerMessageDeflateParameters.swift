/// The permessage-deflate settings agreed for one connection (RFC 7692 §7.1).
public struct PerMessageDeflateParameters: Sendable, Equatable {
  /// The server resets its compressor after every message.
  public var serverNoContextTakeover: Bool
  /// The client resets its compressor after every message, so we reset our inflater.
  public var clientNoContextTakeover: Bool
  /// The server's LZ77 window, 8...15 bits (15 when not negotiated).
  public var serverMaxWindowBits: Int
  /// The client's LZ77 window, 8...15 bits (15 when not negotiated).
  public var clientMaxWindowBits: Int
  /// The `Sec-WebSocket-Extensions` response value that states these settings.
  public var responseHeader: String

  /// Settings as agreed; `negotiate(offers:options:)` builds them from a request.
  public init(
    serverNoContextTakeover: Bool = false, clientNoContextTakeover: Bool = false,
    serverMaxWindowBits: Int = 15, clientMaxWindowBits: Int = 15,
    responseHeader: String = "permessage-deflate"
  ) {
    self.serverNoContextTakeover = serverNoContextTakeover
    self.clientNoContextTakeover = clientNoContextTakeover
    self.serverMaxWindowBits = serverMaxWindowBits
    self.clientMaxWindowBits = clientMaxWindowBits
    self.responseHeader = responseHeader
  }
}
