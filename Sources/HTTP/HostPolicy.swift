/// Which `Host` names the server answers to: a defence against DNS rebinding, where a page on
/// `http://rebind.example:PORT` whose name now points at 127.0.0.1 would otherwise talk to us
/// as its own origin.
///
/// Allowed: IP literals (rebinding needs a DNS name the attacker controls), `localhost` and
/// the names under it (RFC 6761 §6.3: they never leave the machine), the name the server was
/// bound to, the machine's own names when it listens on every address (`Service`), and the
/// extra names given (`--allow-host`). Names are compared without case, port or a trailing
/// dot. A request without Host (HTTP/1.0) passes; the parser already refuses a missing or
/// repeated Host in HTTP/1.1 (RFC 9112 §3.2).
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
    let name = Self.name(ofHost: host)
    return Self.isIPv4(name) || names.contains(name) || name.hasSuffix(".localhost")
  }

  /// nil when `request` may be routed, else why not: a sentence that names the host asked for
  /// and how to answer it (`--allow-host`), sent with 421 (RFC 9110 §15.5.20).
  public func refusal(_ request: Request) -> String? {
    guard !allows(request), let host = request.headers["Host"] else { return nil }
    let name = Self.name(ofHost: host)
    return
      "this server does not answer to the name \(name) for sessions, a guard against DNS rebinding; "
      + "restart it with --allow-host \(name) (make run ALLOW_HOST=\(name)), or open it as "
      + "localhost or by its IP address"
  }

  /// nil when `request` may be routed, else the plain-text 421 to send.
  public func check(_ request: Request) -> Response? {
    refusal(request).map { HTTPError(.misdirectedRequest, $0).response }
  }

  /// Whether `address`, as given to `--host`, listens on every address of the machine
  /// (`0.0.0.0`, `::`), so that its own names reach it.
  public static func isWildcard(_ address: String) -> Bool {
    ["0.0.0.0", "::", "[::]", "0:0:0:0:0:0:0:0"].contains(address)
  }

  /// The name part of a `Host` value, normalized: `Example.COM.:8080` -> `example.com`.
  static func name(ofHost host: String) -> String {
    normalize(String(host.split(separator: ":", omittingEmptySubsequences: false)[0]))
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
