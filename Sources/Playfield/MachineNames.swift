#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The names other machines on the network reach this one by: its host name, that name with
/// `.local` (mDNS, as Avahi and Bonjour answer it), and its fully qualified name when the
/// resolver knows one. A server bound to every address answers them (`HostPolicy`): whoever
/// can reach the machine by one of them already reaches the server, so they open nothing to
/// DNS rebinding, whose attacker needs a name of his own.
enum MachineNames {
  /// The names, lowercased, without duplicates; empty when the machine has no host name.
  static func current() -> [String] {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count - 1) == 0 else { return [] }
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    let host = String(decoding: bytes, as: UTF8.self)
    return names(host: host, canonical: canonicalName(of: host))
  }

  /// `host` (`box` or `box.lan`), its short name, the short name with `.local`, and
  /// `canonical` (the resolver's fully qualified name), without `localhost` or duplicates.
  static func names(host: String, canonical: String?) -> [String] {
    let host = host.lowercased()
    guard !host.isEmpty, host != "localhost" else { return [] }
    let short = String(host.prefix { $0 != "." })
    var found: [String] = []
    for name in [host, short, short + ".local", canonical?.lowercased()].compactMap({ $0 })
    where !name.isEmpty && name != "localhost" && !found.contains(name) {
      found.append(name)
    }
    return found
  }

  /// The fully qualified name the resolver gives `host` (`AI_CANONNAME`), or nil.
  private static func canonicalName(of host: String) -> String? {
    var hints = addrinfo()
    hints.ai_flags = AI_CANONNAME
    hints.ai_family = AF_UNSPEC
    var result: UnsafeMutablePointer<addrinfo>?
    guard getaddrinfo(host, nil, &hints, &result) == 0, let first = result else { return nil }
    defer { freeaddrinfo(result) }
    guard let name = first.pointee.ai_canonname else { return nil }
    return String(cString: name)
  }
}
