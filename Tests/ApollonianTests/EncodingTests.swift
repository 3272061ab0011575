import JSON
import Testing

@testable import Apollonian

@Suite("Apollonian packing: JSON and binary forms")
struct EncodingTests {
  @Test func jsonHasTheSeedShapeInFieldOrder() throws {
    let packing = ApollonianPacking(level: 1)
    let bytes = ApollonianPacking.json(packing.spheres, radius: 2)
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text.hasPrefix(#"[{"X":0,"Y":0,"Z":0,"R":-2,"L":0},{"X":"#))
    guard case .array(let items) = try JSONValue.parse(bytes) else {
      Issue.record("not an array")
      return
    }
    #expect(items.count == 10)
    for (item, sphere) in zip(items, packing.spheres) {
      guard case .object(let fields) = item else {
        Issue.record("not an object")
        return
      }
      #expect(fields["X"] == .number(sphere.x * 2))
      #expect(fields["R"] == .number(sphere.radius * 2))
      #expect(fields["L"] == .number(Double(sphere.level)))
    }
  }

  @Test func theSurfaceShellIsTheSeedFilter() {
    let packing = ApollonianPacking(level: 6)
    let shell = packing.selected(surface: true)
    #expect(!shell.isEmpty && shell.count < packing.spheres.count)
    #expect(shell.allSatisfy { $0.reach > 0.99 && $0.level > 0 })
    #expect(packing.spheres.filter { $0.reach > 0.99 }.count == shell.count)
  }

  @Test func binaryHasAHeaderThenFloatsThenLevels() {
    let spheres = ApollonianPacking(level: 2).spheres
    let bytes = ApollonianPacking.binary(spheres, radius: 3)
    #expect(bytes.count == 16 + 17 * spheres.count)
    #expect(Array(bytes[0..<4]) == Array("PFSP".utf8))
    func word(_ offset: Int) -> UInt32 {
      (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }
    #expect(word(4) == UInt32(spheres.count))
    #expect(Float(bitPattern: word(8)) == 3)
    #expect(word(12) == 1)
    for (index, sphere) in spheres.enumerated() {
      let base = 16 + 16 * index
      #expect(Float(bitPattern: word(base)) == Float(sphere.x * 3))
      #expect(Float(bitPattern: word(base + 12)) == Float(sphere.radius * 3))
      #expect(bytes[16 + 16 * spheres.count + index] == sphere.level)
    }
  }
}

@Suite("Apollonian packing: golden bytes")
struct GoldenTests {
  /// FNV-1a of level 7's binary form. The ETags of `/api/spheres` promise that a URL's bytes
  /// never change: if this fails on purpose, bump `SphereResource.version` with the new hash.
  /// `Benchmarks/apollonian/reference.c`, written apart in C, makes the same bytes.
  @Test func levelSevenIsByteForByteTheSame() {
    let bytes = ApollonianPacking.binary(ApollonianPacking(level: 7).spheres, radius: 1)
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    #expect(bytes.count == 16 + 17 * 11_160)
    #expect(hash == 0xb588_b58a_0e77_cfe0)
  }
}
