import Foundation
import JSON
import Testing

@testable import Simulation

/// CIEDE2000 against the published test data, and the kit clash rule near its threshold.
@Suite("Street soccer kits")
struct StreetSoccerKitTests {
  typealias Kit = StreetSoccer.Kit

  /// Table 1 of Sharma, Wu and Dalal (2005): L1, a1, b1, L2, a2, b2 and ΔE00 to 4 decimals.
  static let sharmaPairs: [[Double]] = [
    [50.0000, 2.6772, -79.7751, 50.0000, 0.0000, -82.7485, 2.0425],
    [50.0000, 3.1571, -77.2803, 50.0000, 0.0000, -82.7485, 2.8615],
    [50.0000, 2.8361, -74.0200, 50.0000, 0.0000, -82.7485, 3.4412],
    [50.0000, -1.3802, -84.2814, 50.0000, 0.0000, -82.7485, 1.0000],
    [50.0000, -1.1848, -84.8006, 50.0000, 0.0000, -82.7485, 1.0000],
    [50.0000, -0.9009, -85.5211, 50.0000, 0.0000, -82.7485, 1.0000],
    [50.0000, 0.0000, 0.0000, 50.0000, -1.0000, 2.0000, 2.3669],
    [50.0000, -1.0000, 2.0000, 50.0000, 0.0000, 0.0000, 2.3669],
    [50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0009, 7.1792],
    [50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0010, 7.1792],
    [50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0011, 7.2195],
    [50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0012, 7.2195],
    [50.0000, -0.0010, 2.4900, 50.0000, 0.0009, -2.4900, 4.8045],
    [50.0000, -0.0010, 2.4900, 50.0000, 0.0010, -2.4900, 4.8045],
    [50.0000, -0.0010, 2.4900, 50.0000, 0.0011, -2.4900, 4.7461],
    [50.0000, 2.5000, 0.0000, 50.0000, 0.0000, -2.5000, 4.3065],
    [50.0000, 2.5000, 0.0000, 73.0000, 25.0000, -18.0000, 27.1492],
    [50.0000, 2.5000, 0.0000, 61.0000, -5.0000, 29.0000, 22.8977],
    [50.0000, 2.5000, 0.0000, 56.0000, -27.0000, -3.0000, 31.9030],
    [50.0000, 2.5000, 0.0000, 58.0000, 24.0000, 15.0000, 19.4535],
    [50.0000, 2.5000, 0.0000, 50.0000, 3.1736, 0.5854, 1.0000],
    [50.0000, 2.5000, 0.0000, 50.0000, 3.2972, 0.0000, 1.0000],
    [50.0000, 2.5000, 0.0000, 50.0000, 1.8634, 0.5757, 1.0000],
    [50.0000, 2.5000, 0.0000, 50.0000, 3.2592, 0.3350, 1.0000],
    [60.2574, -34.0099, 36.2677, 60.4626, -34.1751, 39.4387, 1.2644],
    [63.0109, -31.0961, -5.8663, 62.8187, -29.7946, -4.0864, 1.2630],
    [61.2901, 3.7196, -5.3901, 61.4292, 2.2480, -4.9620, 1.8731],
    [35.0831, -44.1164, 3.7933, 35.0232, -40.0716, 1.5901, 1.8645],
    [22.7233, 20.0904, -46.6940, 23.0331, 14.9730, -42.5619, 2.0373],
    [36.4612, 47.8580, 18.3852, 36.2715, 50.5065, 21.2231, 1.4146],
    [90.8027, -2.0831, 1.4410, 91.1528, -1.6435, 0.0447, 1.4441],
    [90.9257, -0.5406, -0.9208, 88.6381, -0.8985, -0.7239, 1.5381],
    [6.7747, -0.2908, -2.4247, 5.8714, -0.0985, -2.2286, 0.6377],
    [2.0776, 0.0795, -1.1350, 0.9033, -0.0636, -0.5514, 0.9082],
  ]

  @Test func ciede2000MatchesThePublishedTestDataBothWays() {
    #expect(Self.sharmaPairs.count == 34)
    for pair in Self.sharmaPairs {
      let first = LabColor(l: pair[0], a: pair[1], b: pair[2])
      let second = LabColor(l: pair[3], a: pair[4], b: pair[5])
      let forward = CIEDE2000.difference(first, second)
      let backward = CIEDE2000.difference(second, first)
      #expect(abs(forward - pair[6]) < 0.000_05, "\(pair): \(forward)")
      #expect(abs(backward - pair[6]) < 0.000_05, "\(pair) reversed: \(backward)")
    }
    #expect(
      CIEDE2000.difference(LabColor(l: 40, a: 20, b: -30), LabColor(l: 40, a: 20, b: -30)) == 0)
  }

  @Test func theElementaryFunctionsAgreeWithTheSystemLibrary() {
    var random = SeededGenerator(seed: 5)
    for _ in 0..<2_000 {
      let x = random.next(in: -40...40)
      #expect(abs(DeterministicMath.exp(x) - Foundation.exp(x)) <= 4e-16 * Foundation.exp(x))
      let positive = Foundation.exp(random.next(in: -30...30))
      #expect(
        abs(DeterministicMath.log(positive) - Foundation.log(positive)) <= 1e-15
          * max(1, abs(Foundation.log(positive))))
      let y = random.next(in: -5...5)
      #expect(abs(DeterministicMath.atan2(y, x) - Foundation.atan2(y, x)) <= 1e-15)
      #expect(abs(DeterministicMath.atan(x) - Foundation.atan(x)) <= 1e-15)
    }
    #expect(DeterministicMath.atan2(0, -1) == .pi && DeterministicMath.atan2(0, 0) == 0)
    #expect(DeterministicMath.exp(-800) == 0 && DeterministicMath.exp(800) == .infinity)
    #expect(DeterministicMath.log(0) == -.infinity && DeterministicMath.log(-1).isNaN)
  }

  @Test func sRGBColoursConvertToLab() {
    let white = Kit.lab("#ffffff")
    #expect(abs(white.l - 100) < 1e-4 && abs(white.a) < 0.01 && abs(white.b) < 0.01)
    let black = Kit.lab("#000000")
    #expect(black.l == 0 && black.a == 0 && black.b == 0)
    // Pure sRGB red: L* 53.24, a* 80.09, b* 67.20 (D65).
    let red = Kit.lab("#ff0000")
    #expect(abs(red.l - 53.24) < 0.01 && abs(red.a - 80.09) < 0.01 && abs(red.b - 67.20) < 0.01)
    for channel in [0, 1, 10, 11, 128, 254, 255] {
      #expect(LabColor.encoded(LabColor.linear(channel)) == channel)
    }
  }

  /// Pairs of plain shirts just either side of the threshold (25), their ΔE00 from an
  /// independent implementation (Python, from the same paper).
  static let nearThreshold: [(String, String, Double)] = [
    ("#d62828", "#e47898", 24.850_297_7),
    ("#d62828", "#d89890", 25.149_433_9),
    ("#1d4ed8", "#984888", 24.853_377_5),
    ("#1d4ed8", "#9c3888", 25.149_274_9),
    // Pairs football treats as clashes, and as different.
    ("#000000", "#0b1f4b", 20.57),
    ("#1d4ed8", "#0b1f4b", 22.91),
    ("#d62828", "#7a263a", 22.46),
    ("#1d4ed8", "#6cabdd", 30.77),
    ("#ffffff", "#ffd100", 30.63),
  ]

  @Test(arguments: nearThreshold)
  func theClashRuleNearItsThreshold(_ home: String, _ away: String, _ expected: Double) {
    let first = Self.plain(home)
    let second = Self.plain(away)
    let difference = Kit.difference(first, second)
    #expect(abs(difference - expected) < (expected.rounded() == expected ? 1e-6 : 0.005))
    #expect(Kit.clash(first, second) == (expected < 25))
    let shown = Kit.shown(home: first, away: second)
    #expect(shown[0] == first)
    if expected < 25 {
      #expect(shown[1] != second && !Kit.clash(first, shown[1]))
    } else {
      #expect(shown[1] == second)
    }
  }

  @Test func patternsAreSeenFromAfar() {
    let redWhite = Kit(
      shirt: "#d62828", shorts: "#ffffff", pattern: .stripes, patternColor: "#ffffff")
    let whiteRed = Kit(
      shirt: "#ffffff", shorts: "#d62828", pattern: .stripes, patternColor: "#d62828")
    // The same two colours in equal shares look alike from afar, whichever is the shirt.
    #expect(Kit.difference(redWhite, whiteRed) < 1e-9 && Kit.clash(redWhite, whiteRed))
    // Stripes, hoops and halves cover half the shirt, a sash a quarter, plain nothing.
    let hoops = Kit(shirt: "#d62828", shorts: "#ffffff", pattern: .hoops, patternColor: "#ffffff")
    #expect(Kit.difference(redWhite, hoops) < 1e-9)
    let sash = Kit(shirt: "#d62828", shorts: "#ffffff", pattern: .sash, patternColor: "#ffffff")
    let plain = Self.plain("#d62828")
    #expect(Kit.difference(plain, sash) < Kit.difference(plain, redWhite))
    #expect(
      Kit.difference(
        plain, Kit(shirt: "#d62828", shorts: "#000000", pattern: .plain, patternColor: "#00ff00"))
        == 0)
  }

  @Test func aClashingAwayKitChangesForEveryoneAndTheKeeperIsBrighter() throws {
    var model = try StreetSoccer(config: ["away": "human"], seed: 1)
    #expect(model.state.shown == [Kit.home, Kit.away])
    let events = model.step(parsing: [
      [
        "type": "kit", "side": "away", "shirt": "#C01818", "shorts": "#ffffff",
        "pattern": "plain", "patternColor": "#ffffff",
      ]
    ])
    #expect(events.map(\.name) == ["kits"] && events[0].fields["clash"] == true)
    #expect(model.state.kits[1].shirt == "#c01818")
    let shown = model.state.shown[1]
    #expect(shown != model.state.kits[1] && !Kit.clash(Kit.home, shown))
    // Against red, the change kit with the largest difference: yellow with navy shorts.
    #expect(shown.shirt == "#ffd100")
    var writer = JSONWriter()
    writer.beginObject()
    model.writeFrame(into: &writer)
    writer.endObject()
    let frame = try JSONValue.parse(writer.bytes)
    #expect(frame["kits"]?["away"]?["shirt"] == "#ffd100" && frame["kits"]?["clash"] == true)
    // The goalkeeper's shirt is the shirt mixed with 40 % white: lighter.
    let keeper = try #require(frame["kits"]?["home"]?["keeper"]?.stringValue)
    #expect(Kit.lab(keeper).l > Kit.lab(Kit.home.shirt).l + 10)
    // Home changing to a kit far from away's own brings away's kit back.
    let back = model.step(parsing: [
      [
        "type": "kit", "side": "home", "shirt": "#00843d", "shorts": "#ffffff",
        "pattern": "hoops", "patternColor": "#ffffff",
      ]
    ])
    #expect(back[0].fields["clash"] == false && model.state.shown[1] == model.state.kits[1])
  }

  static func plain(_ shirt: String) -> Kit {
    Kit(shirt: shirt, shorts: "#ffffff", pattern: .plain, patternColor: "#ffffff")
  }
}

extension StreetSoccer.Kit {
  /// The Lab colour of `#rrggbb`.
  fileprivate static func lab(_ hex: String) -> LabColor {
    Self(shirt: hex, shorts: hex, pattern: .plain, patternColor: hex).appearance
  }
}
