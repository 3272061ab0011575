import HTTP

/// The server side of the opening handshake (RFC 6455 §4.2), as a pure function of the
/// request: either the complete 101 response and what was negotiated, or a rejection.
public enum WebSocketHandshake {
  /// How the server picks one of the client's `Sec-WebSocket-Protocol` values (§4.2.2).
  public enum SubprotocolSelection: Sendable, Equatable {
    /// Never select one.
    case none
    /// Select the first one the client offered (used by `/ws/echo`).
    case firstOffered
    /// Select the first of these, in the server's order of preference, that was offered.
    case preferred([String])
  }

  /// What the server supports.
  public struct Options: Sendable, Equatable {
    /// How to pick a `Sec-WebSocket-Protocol`.
    public var subprotocols: SubprotocolSelection
    /// permessage-deflate policy; nil turns the extension off.
    public var deflate: PerMessageDeflateOptions?
    /// Limits and timers for the connection once it is open.
    public var configuration: WebSocketConfiguration

    /// Options with permessage-deflate on (`.recommended`), no subprotocol, default limits.
    public init(
      subprotocols: SubprotocolSelection = .none,
      deflate: PerMessageDeflateOptions? = .recommended,
      configuration: WebSocketConfiguration = WebSocketConfiguration()
    ) {
      self.subprotocols = subprotocols
      self.deflate = deflate
      self.configuration = configuration
    }
  }

  /// A successful handshake.
  public struct Accepted: Sendable {
    /// The complete `101 Switching Protocols` response.
    public var response: Response
    /// The selected subprotocol, also in the response.
    public var subprotocol: String?
    /// The agreed permessage-deflate settings, or nil when not in use.
    public var deflate: PerMessageDeflateParameters?
    /// Limits and timers for the connection (from `Options`).
    public var configuration: WebSocketConfiguration

    /// A state machine for the connection that this response opens.
    public func makeStateMachine(now: MonotonicTime) -> WebSocketStateMachine {
      WebSocketStateMachine(configuration: configuration, deflate: deflate, now: now)
    }
  }

  /// The verdict on an upgrade request.
  public enum Outcome: Sendable {
    case accept(Accepted)
    /// 400, or 426 for an unsupported version; send it and keep HTTP going.
    case reject(Response)
  }

  /// The GUID of RFC 6455 §1.3.
  static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

  /// `Sec-WebSocket-Accept` for a key: base64(SHA-1(key + GUID)) (RFC 6455 §4.2.2).
  public static func acceptValue(forKey key: String) -> String {
    Base64.encode(SHA1.hash(Array((key + guid).utf8)))
  }

  /// Validates an upgrade request (RFC 6455 §4.2.1) and builds the response (§4.2.2).
  public static func evaluate(_ request: Request, options: Options = Options()) -> Outcome {
    let headers = request.headers
    guard request.method == .get else { return reject("the method must be GET") }
    guard request.version.major == 1, request.version.minor >= 1 else {
      return reject("HTTP/1.1 or later is required")
    }
    guard headers.values("Host").count == 1 else { return reject("one Host header is required") }
    guard headers.hasToken("Upgrade", "websocket") else {
      return reject("the Upgrade header must name websocket")
    }
    guard headers.hasToken("Connection", "upgrade") else {
      return reject("the Connection header must include Upgrade")
    }
    let versions = headers.values("Sec-WebSocket-Version")
    guard !versions.isEmpty else { return reject("Sec-WebSocket-Version is missing") }
    // RFC 6455 §4.4: an unsupported version gets 426 naming the versions we speak.
    guard versions.count == 1, versions[0].trimmingSpaces() == "13" else {
      return .reject(versionRequired())
    }
    let keys = headers.values("Sec-WebSocket-Key")
    guard keys.count == 1 else { return reject("one Sec-WebSocket-Key header is required") }
    let key = keys[0].trimmingSpaces()
    guard Base64.decode(key)?.count == 16 else {
      return reject("Sec-WebSocket-Key must be 16 bytes in base64")
    }

    var extensionValues = headers.values("Sec-WebSocket-Extensions")
    extensionValues.removeAll { $0.allSatisfy { $0 == " " || $0 == "\t" } }
    var deflate: PerMessageDeflateParameters?
    if !extensionValues.isEmpty {
      guard let offers = WebSocketExtensionOffer.parse(extensionValues) else {
        return reject("Sec-WebSocket-Extensions is malformed")
      }
      if let policy = options.deflate {
        deflate = PerMessageDeflateParameters.negotiate(offers: offers, options: policy)
      }
    }
    let subprotocol = select(
      options.subprotocols, offered: headers.tokensKeepingCase("Sec-WebSocket-Protocol"))

    var response = Response(status: .switchingProtocols)
    response.headers.add("Upgrade", "websocket")
    response.headers.add("Connection", "Upgrade")
    response.headers.add("Sec-WebSocket-Accept", acceptValue(forKey: key))
    if let subprotocol { response.headers.add("Sec-WebSocket-Protocol", subprotocol) }
    if let deflate { response.headers.add("Sec-WebSocket-Extensions", deflate.responseHeader) }
    return .accept(
      Accepted(
        response: response, subprotocol: subprotocol, deflate: deflate,
        configuration: options.configuration))
  }

  private static func select(_ rule: SubprotocolSelection, offered: [String]) -> String? {
    switch rule {
    case .none: nil
    case .firstOffered: offered.first
    case .preferred(let supported): supported.first { offered.contains($0) }
    }
  }

  private static func reject(_ reason: String) -> Outcome {
    .reject(
      Response(
        status: .badRequest, contentType: "text/plain; charset=utf-8",
        body: "Failed to open a WebSocket connection: \(reason).\n"))
  }

  private static func versionRequired() -> Response {
    var response = Response(
      status: .upgradeRequired, contentType: "text/plain; charset=utf-8",
      body: "Failed to open a WebSocket connection: only version 13 is supported.\n")
    response.headers.add("Sec-WebSocket-Version", "13")
    response.headers.add("Upgrade", "websocket")
    return response
  }
}

extension HTTPHeaders {
  /// The comma-separated elements of every `name` field, trimmed, case kept (subprotocol
  /// names are case-sensitive, RFC 6455 §4.1).
  fileprivate func tokensKeepingCase(_ name: String) -> [String] {
    values(name).flatMap { $0.split(separator: ",").map { String($0).trimmingSpaces() } }
      .filter { !$0.isEmpty }
  }
}

extension String {
  func trimmingSpaces() -> String {
    var slice = self[...]
    while slice.first == " " || slice.first == "\t" { slice = slice.dropFirst() }
    while slice.last == " " || slice.last == "\t" { slice = slice.dropLast() }
    return String(slice)
  }
}
