#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which client a peer address counts as, for every per-client bound (connections, sessions,
/// renders): its address group.
///
/// - An IPv4 address is its own group (`203.0.113.7`).
/// - An IPv6 address groups by its /64 (`2001:db8:1:2::/64`): one subscriber usually holds a
///   whole /64, so counting single addresses would give them unlimited quota.
/// - An IPv4-mapped IPv6 address (`::ffff:203.0.113.7`, what a server listening on `::` sees
///   for IPv4 peers) counts as the IPv4 address.
/// - Loopback: `::1` counts as `127.0.0.1`. Each other 127.x.y.z is its own group unless
///   `loopbackAsOne` makes the whole loopback one group (`loopback`); the abuse harness
///   (`Benchmarks/abuse`) relies on the default, playing many clients from 127.0.0.x.
/// - A peer listed in `trustedProxies` (e.g. nginx in front) is not the client: the client is
///   the first address of `X-Forwarded-For`, counted from the right, that is no trusted proxy.
///
/// Pure: text in, text out.
public struct AddressGrouping: Sendable, Equatable {
  /// Counts every loopback address (127.0.0.0/8 and ::1) as one group, `loopback`.
  public var loopbackAsOne = false
  /// Peers whose `X-Forwarded-For` is believed, as address texts (`127.0.0.1`, `::1`).
  public var trustedProxies: [String] = [] {
    didSet { trusted = Set(trustedProxies.compactMap(Self.canonical)) }
  }
  private var trusted: Set<String> = []

  public init(loopbackAsOne: Bool = false, trustedProxies: [String] = []) {
    self.loopbackAsOne = loopbackAsOne
    self.trustedProxies = trustedProxies
    self.trusted = Set(trustedProxies.compactMap(Self.canonical))
  }

  /// Whether `text` is an IP address literal (IPv4 dotted quad or IPv6, without zone).
  public static func isAddress(_ text: String) -> Bool {
    parse(text) != nil
  }

  /// Whether `peer` is one of the trusted proxies.
  public func isTrustedProxy(_ peer: String) -> Bool {
    guard !trusted.isEmpty, let canonical = Self.canonical(peer) else { return false }
    return trusted.contains(canonical)
  }

  /// The group of one address; text that is no address is its own group, unchanged.
  public func group(of address: String) -> String {
    switch Self.parse(address) {
    case .v4(let bytes):
      return group(v4: bytes)
    case .v6(let bytes):
      if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff {
        return group(v4: Array(bytes[12..<16]))
      }
      if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 {
        return loopbackAsOne ? "loopback" : "127.0.0.1"
      }
      return Self.spelling(v6: Array(bytes[0..<8]) + Array(repeating: 0, count: 8)) + "/64"
    case nil:
      return address
    }
  }

  /// The group of the client behind `peer`: `peer`'s own, or, when `peer` is a trusted proxy,
  /// that of the rightmost `X-Forwarded-For` entry that is no trusted proxy (RFC 7239 §5.2 and
  /// the de-facto `X-Forwarded-For`: each proxy appends the address it received from). Entries
  /// that are no address are skipped; a proxy that names nobody counts as the client itself.
  public func clientGroup(peer: String, forwardedFor fields: [String]) -> String {
    guard isTrustedProxy(peer) else { return group(of: peer) }
    let hops = fields.flatMap { $0.split(separator: ",") }.map(Self.trimmed)
    for hop in hops.reversed() {
      let address = Self.strippingPort(hop)
      guard Self.parse(address) != nil else { continue }
      if isTrustedProxy(address) { continue }
      return group(of: address)
    }
    return group(of: peer)
  }

  private func group(v4 bytes: [UInt8]) -> String {
    if loopbackAsOne && bytes[0] == 127 { return "loopback" }
    return bytes.map(String.init).joined(separator: ".")
  }

  // MARK: Parsing

  private enum Parsed {
    case v4([UInt8])
    case v6([UInt8])
  }

  /// The address's bytes; a zone (`fe80::1%eth0`) is ignored.
  private static func parse(_ text: String) -> Parsed? {
    let bare = text.split(separator: "%", maxSplits: 1).first.map(String.init) ?? text
    guard !bare.isEmpty, bare.utf8.count <= 64 else { return nil }
    var v4 = in_addr()
    if inet_pton(AF_INET, bare, &v4) == 1 {
      return .v4(withUnsafeBytes(of: &v4) { Array($0) })
    }
    var v6 = in6_addr()
    if inet_pton(AF_INET6, bare, &v6) == 1 {
      return .v6(withUnsafeBytes(of: &v6) { Array($0) })
    }
    return nil
  }

  /// One spelling per address, for comparing proxies: IPv4 dotted, IPv6 as `inet_ntop` writes
  /// it, IPv4-mapped as IPv4.
  private static func canonical(_ text: String) -> String? {
    switch parse(text) {
    case .v4(let bytes):
      return bytes.map(String.init).joined(separator: ".")
    case .v6(let bytes):
      if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff {
        return bytes[12..<16].map(String.init).joined(separator: ".")
      }
      return spelling(v6: bytes)
    case nil:
      return nil
    }
  }

  private static func spelling(v6 bytes: [UInt8]) -> String {
    var address = in6_addr()
    withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: bytes) }
    var chars = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
    inet_ntop(AF_INET6, &address, &chars, socklen_t(chars.count))
    return Socket.string(chars)
  }

  /// `[2001:db8::1]:443` → `2001:db8::1`, `192.0.2.1:80` → `192.0.2.1`; others unchanged.
  private static func strippingPort(_ hop: String) -> String {
    if hop.hasPrefix("["), let close = hop.firstIndex(of: "]") {
      return String(hop[hop.index(after: hop.startIndex)..<close])
    }
    let colons = hop.filter { $0 == ":" }.count
    if colons == 1, let colon = hop.firstIndex(of: ":") { return String(hop[..<colon]) }
    return hop
  }

  private static func trimmed(_ text: Substring) -> String {
    String(
      text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
  }
}
