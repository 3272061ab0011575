/// Which addresses a URL import may connect to: public unicast ones only. Refused: the
/// unspecified, loopback, private (RFC 1918), shared (100.64/10), link-local (169.254/16, where
/// clouds answer with their metadata, and fe80::/10), unique-local (fc00::/7), site-local,
/// multicast, broadcast, reserved and documentation ranges; an IPv4 address inside IPv6
/// (`::ffff:a.b.c.d`, `64:ff9b::a.b.c.d`, `::a.b.c.d`) is judged as that IPv4 address.
///
/// Pure: `RecipeFetcher` asks it about each address libcurl resolved, as the connection is
/// about to be opened (after DNS, on every redirect), so that a name that resolves to a public
/// address for a check and to a private one for the connection gains nothing.
enum FetchAddressPolicy {
  /// Whether `bytes` (4 for IPv4, 16 for IPv6) is a public unicast address.
  static func isPublic(_ bytes: [UInt8]) -> Bool {
    switch bytes.count {
    case 4: return isPublicIPv4(bytes[0], bytes[1], bytes[2], bytes[3])
    case 16: return isPublicIPv6(bytes)
    default: return false
    }
  }

  private static func isPublicIPv4(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> Bool {
    switch (a, b, c) {
    case (0, _, _), (10, _, _), (127, _, _): return false  // this network, private, loopback
    case (100, 64...127, _): return false  // shared address space (carrier NAT)
    case (169, 254, _): return false  // link-local (cloud metadata)
    case (172, 16...31, _): return false  // private
    case (192, 0, 0), (192, 0, 2), (192, 88, 99): return false  // IETF, documentation, 6to4 relay
    case (192, 168, _): return false  // private
    case (198, 18...19, _): return false  // benchmarking
    case (198, 51, 100), (203, 0, 113): return false  // documentation
    case (224...255, _, _): return false  // multicast, reserved, broadcast
    default: return true
    }
  }

  private static func isPublicIPv6(_ bytes: [UInt8]) -> Bool {
    let first10 = bytes[0..<10].allSatisfy { $0 == 0 }
    if first10 && bytes[10] == 0xFF && bytes[11] == 0xFF {  // ::ffff:a.b.c.d
      return isPublicIPv4(bytes[12], bytes[13], bytes[14], bytes[15])
    }
    if first10 && bytes[10] == 0 && bytes[11] == 0 {  // ::, ::1 and ::a.b.c.d
      return false
    }
    if bytes[0..<12] == [0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0][...] {  // NAT64
      return isPublicIPv4(bytes[12], bytes[13], bytes[14], bytes[15])
    }
    if bytes[0] == 0xFF { return false }  // multicast
    if bytes[0] & 0xFE == 0xFC { return false }  // unique local fc00::/7
    if bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80 { return false }  // link-local fe80::/10
    if bytes[0] == 0xFE && bytes[1] & 0xC0 == 0xC0 { return false }  // site-local fec0::/10
    if bytes[0..<4] == [0x20, 0x01, 0x0D, 0xB8][...] { return false }  // documentation
    if bytes[0..<2] == [0x20, 0x02][...] {  // 6to4: judged by its IPv4 address
      return isPublicIPv4(bytes[2], bytes[3], bytes[4], bytes[5])
    }
    return bytes[0] & 0xE0 == 0x20  // global unicast is 2000::/3
  }
}
