import Testing

@testable import Playfield

@Suite("Which addresses a recipe import by URL may reach")
struct FetchAddressPolicyTests {
  private func v6(_ groups: [UInt16]) -> [UInt8] {
    groups.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
  }

  @Test("loopback, private, link-local (cloud metadata), multicast and the like are refused")
  func refusedIPv4() {
    for address: [UInt8] in [
      [127, 0, 0, 1], [127, 9, 9, 9], [10, 1, 2, 3], [172, 16, 0, 1], [172, 31, 255, 255],
      [192, 168, 1, 1], [169, 254, 169, 254], [0, 0, 0, 0], [100, 64, 0, 1], [224, 0, 0, 1],
      [255, 255, 255, 255], [240, 0, 0, 1], [198, 18, 0, 1], [192, 0, 2, 1],
    ] {
      #expect(!FetchAddressPolicy.isPublic(address), "\(address)")
    }
  }

  @Test("public IPv4 addresses pass, including the neighbours of refused ranges")
  func publicIPv4() {
    for address: [UInt8] in [
      [93, 184, 216, 34], [8, 8, 8, 8], [172, 15, 255, 255], [172, 32, 0, 0],
      [100, 63, 255, 255], [100, 128, 0, 0], [169, 253, 1, 1], [11, 0, 0, 1], [223, 255, 255, 255],
    ] {
      #expect(FetchAddressPolicy.isPublic(address), "\(address)")
    }
  }

  @Test("IPv6: unspecified, loopback, link-local, unique-local, multicast, IPv4 inside: judged")
  func ipv6() {
    let refused: [[UInt16]] = [
      [0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 1], [0xFE80, 0, 0, 0, 0, 0, 0, 1],
      [0xFEBF, 0, 0, 0, 0, 0, 0, 1], [0xFC00, 0, 0, 0, 0, 0, 0, 1], [0xFD12, 3, 4, 5, 6, 7, 8, 9],
      [0xFF02, 0, 0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 0xFFFF, 0x7F00, 1],
      [0, 0, 0, 0, 0, 0xFFFF, 0xA9FE, 0xA9FE], [0x64, 0xFF9B, 0, 0, 0, 0, 0x0A00, 1],
      [0x2002, 0xC0A8, 1, 0, 0, 0, 0, 1], [0x2001, 0xDB8, 0, 0, 0, 0, 0, 1],
    ]
    for groups in refused {
      #expect(!FetchAddressPolicy.isPublic(v6(groups)), "\(groups)")
    }
    let allowed: [[UInt16]] = [
      [0x2606, 0x2800, 0x220, 1, 0x248, 0x1893, 0x25C8, 0x1946],
      [0, 0, 0, 0, 0, 0xFFFF, 0x5DB8, 0xD822], [0x2A00, 0x1450, 0x4001, 0x80B, 0, 0, 0, 0x200E],
    ]
    for groups in allowed {
      #expect(FetchAddressPolicy.isPublic(v6(groups)), "\(groups)")
    }
    #expect(!FetchAddressPolicy.isPublic([1, 2, 3]))
  }
}
