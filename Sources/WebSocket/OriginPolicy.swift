import HTTP

/// Which browser origins may open a WebSocket (RFC 6455 §10.2, RFC 6454).
///
/// Allowed: no `Origin` at all (scripts and non-browser clients), an `http://` origin whose
/// host and port equal the request's `Host` (same origin), or one in `allowedOrigins`. Anything else,
/// including `null` and repeated `Origin` fields, gets 403.
public struct OriginPolicy: Sendable, Equatable {
  /// Extra origins such as `https://example.com:8443`; compared without case, default ports
  /// dropped.
  public var allowedOrigins: [String]

  /// A policy allowing same-origin requests, requests without Origin, and `allowedOrigins`.
  public init(allowedOrigins: [String] = []) {
    self.allowedOrigins = allowedOrigins
  }

  /// Whether `request` may upgrade.
  public func allows(_ request: Request) -> Bool {
    let origins = request.headers.values("Origin")
    guard let origin = origins.first else { return true }
    guard origins.count == 1 else { return false }
    let normalized = Self.normalize(origin)
    if allowedOrigins.contains(where: { Self.normalize($0) == normalized }) { return true }
    // NB: this server speaks plain http, and browsers write the scheme in lower case, so a
    // same-origin Origin starts with exactly `http://` (RFC 6454 §6.2).
    let hosts = request.headers.values("Host")
    guard origin.trimmingSpaces().hasPrefix("http://"),
      let (scheme, authority) = Self.split(normalized),
      hosts.count == 1
    else { return false }
    return authority == Self.dropDefaultPort(hosts[0].lowercased(), scheme: scheme)
  }

  /// nil when `request` may upgrade, else the 403 response to send.
  public func check(_ request: Request) -> Response? {
    guard !allows(request) else { return nil }
    return Response(
      status: .forbidden, contentType: "text/plain; charset=utf-8",
      body: "Failed to open a WebSocket connection: origin not allowed.\n")
  }

  /// Lowercases and drops a default port and a trailing slash: `HTTP://A:80/` -> `http://a`.
  static func normalize(_ origin: String) -> String {
    var text = origin.trimmingSpaces().lowercased()
    if text.hasSuffix("/") { text.removeLast() }
    guard let (scheme, authority) = split(text) else { return text }
    return scheme + "://" + dropDefaultPort(authority, scheme: scheme)
  }

  /// `scheme://authority` into its two parts.
  static func split(_ origin: String) -> (String, String)? {
    guard let range = origin.firstRange(of: "://") else { return nil }
    let authority = String(origin[range.upperBound...])
    guard !authority.isEmpty, !authority.contains("/") else { return nil }
    return (String(origin[..<range.lowerBound]), authority)
  }

  static func dropDefaultPort(_ authority: String, scheme: String) -> String {
    let port =
      switch scheme {
      case "http", "ws": ":80"
      case "https", "wss": ":443"
      default: ""
      }
    if !port.isEmpty, authority.hasSuffix(port) { return String(authority.dropLast(port.count)) }
    return authority
  }
}
