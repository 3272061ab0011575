/// Which `Host` names the server answers to: a defence against DNS rebinding, where a page on
/// `http://rebind.example:PORT` whose name now points at 127.0.0.1 would otherwise talk to us
/// as its own origin.
///
/// Allowed: IP literals (rebinding needs a DNS name the attacker controls), `localhost`, the
/// name the server was bound to and the extra names given (`--allow-host`). Names are compared
/// without case, port or a trailing dot. A request without Host (HTTP/1.0) passes; the parser
/// already refuses a missing or repeated Host in HTTP/1.1 (RFC 9112 §3.2).
public struct HostPolicy: Sendable, Equatable {
  /// Lowercased names without port, e.g. `localhost`, `playfield.example`.
  public private(set) var names: Set<String>

  /// Allows `localhost`, IP literals and `names` (the bound name, `--allow-host`).
  public init(names: [String] = []) {
    self.names = Set((["localhost"] + names).map(Self.normalize))
  }

  /// Whether `request` names a host we answer to.
  public func allows(_ request: Request) -> Bool {
    guard let host = request.headers["Host"] else { return true }
    return allows(host: host)
  }

  /// Whether a `Host` field value (`name[:port]` or `[v6]:port`) is allowed.
  public func allows(host: String) -> Bool {
    if host.hasPrefix("[") { return host.contains("]") }
    let name = Self.normalize(
      String(host.split(separator: ":", omittingEmptySubsequences: false)[0]))
    return Self.isIPv4(name) || names.contains(name)
  }

  /// nil when `request` may be routed, else the 421 to send (RFC 9110 §15.5.20).
  public func check(_ request: Request) -> Response? {
    guard !allows(request) else { return nil }
    return HTTPError(
      .misdirectedRequest,
      "this server does not answer to that Host; start it with --allow-host NAME to add a name"
    ).response
  }

  /// `Example.COM.` -> `example.com`; a bracketed IPv6 literal stays as it is.
  static func normalize(_ name: String) -> String {
    var text = name.lowercased()
    if text.hasSuffix("."), text.count > 1 { text.removeLast() }
    return text
  }

  /// Four dot-separated decimal numbers from 0 to 255.
  static func isIPv4(_ name: String) -> Bool {
    let parts = name.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 4
      && parts.allSatisfy { part in
        (1...3).contains(part.count) && part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber)
          && Int(part).map { $0 <= 255 } == true
      }
  }
}
