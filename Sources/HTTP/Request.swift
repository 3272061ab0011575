/// A parsed HTTP/1.x request: head and complete body.
public struct Request: Sendable {
  public var method: HTTPMethod
  /// The request target exactly as sent, e.g. `/tiles/mandelbrot/0/0/0.png?iter=200`.
  public var target: String
  public var version: HTTPVersion
  public var headers: HTTPHeaders
  public var body: [UInt8]

  public init(
    method: HTTPMethod, target: String, version: HTTPVersion = .http1_1,
    headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []
  ) {
    self.method = method
    self.target = target
    self.version = version
    self.headers = headers
    self.body = body
  }

  /// The still percent-encoded path: the target up to `?` or `#`.
  public var path: Substring {
    let utf8 = target.utf8
    let end = utf8.withContiguousStorageIfAvailable { bytes in
      bytes.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
    }
    switch end {
    case .some(nil):
      // NB: most targets have no query: the whole target, without the index checks of
      // `target[...]` (about 90 instructions, and a static file's path is asked for twice).
      return Substring(target)
    case .some(let length?):
      return target[..<utf8.index(utf8.startIndex, offsetBy: length)]
    case nil:
      let end = utf8.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
      return target[..<(end ?? utf8.endIndex)]
    }
  }

  /// The raw query string after `?`, without a fragment, or nil when there is none.
  public var query: Substring? {
    let utf8 = target.utf8
    guard let mark = utf8.firstIndex(of: UInt8(ascii: "?")) else { return nil }
    let start = utf8.index(after: mark)
    let end = utf8[start...].firstIndex(of: UInt8(ascii: "#")) ?? utf8.endIndex
    return target[start..<end]
  }

  /// Whether the request framed a body with Content-Length or Transfer-Encoding. A handler
  /// that needs a body answers 411 without one (RFC 9110 §15.5.12).
  public var declaresBody: Bool {
    headers.contains("Content-Length") || headers.contains("Transfer-Encoding")
  }

  /// Whether the connection should stay open after this request (RFC 9112 §9.3).
  public var keepAlive: Bool {
    if headers.hasToken("Connection", "close") { return false }
    if version == .http1_0 { return headers.hasToken("Connection", "keep-alive") }
    return version.major == 1 && version.minor >= 1
  }
}
