extension StreetSoccer.Kit {
  /// Kits whose shirts differ by less than this CIEDE2000 ΔE00 clash (docs/street-soccer.md
  /// says why 25).
  public static let clashThreshold = 25.0

  /// What away changes to, in order of preference between equally distant ones: very light
  /// and very dark shirts, which stay apart for colour-blind eyes too (they differ in
  /// lightness, not only in hue).
  static let changeKits = [
    Self(shirt: "#ffffff", shorts: "#111111", pattern: .plain, patternColor: "#111111"),
    Self(shirt: "#111111", shorts: "#ffffff", pattern: .plain, patternColor: "#ffffff"),
    Self(shirt: "#ffd100", shorts: "#0b1f4b", pattern: .plain, patternColor: "#0b1f4b"),
    Self(shirt: "#0b1f4b", shorts: "#ffffff", pattern: .plain, patternColor: "#ffffff"),
  ]

  /// The shirt as seen from a distance, where a pattern's fine detail blurs: the shirt and
  /// pattern colours mixed in linear light by the pattern's coverage.
  public var appearance: LabColor {
    let base = Self.linear(shirt)
    let pattern = Self.linear(patternColor)
    let share = self.pattern.coverage
    let mixed = base * (1 - share) + pattern * share
    return LabColor(linearRed: mixed.x, green: mixed.y, blue: mixed.z)
  }

  /// ΔE00 between two kits' shirts as seen from a distance.
  public static func difference(_ first: Self, _ second: Self) -> Double {
    CIEDE2000.difference(first.appearance, second.appearance)
  }

  /// Whether two kits are too close to tell apart on the pitch.
  public static func clash(_ first: Self, _ second: Self) -> Bool {
    difference(first, second) < clashThreshold
  }

  /// The kits both players see, home's first. Home keeps its kit; away keeps its own unless
  /// it clashes, and then wears, of its own kit reversed (shirt and shorts swapped) and the
  /// change kits, the one most different from home's.
  static func shown(home: Self, away: Self) -> [Self] {
    guard clash(home, away) else { return [home, away] }
    var best = away.reversed
    var bestDifference = difference(home, best)
    for kit in changeKits {
      let distance = difference(home, kit)
      if distance > bestDifference {
        best = kit
        bestDifference = distance
      }
    }
    return [home, best]
  }

  /// The kit with shirt and shorts colours swapped.
  var reversed: Self {
    Self(shirt: shorts, shorts: shirt, pattern: pattern, patternColor: patternColor)
  }

  /// The goalkeeper's shirt: the shirt colour brightened (mixed with 40 % white in linear
  /// light), so he stands out from his team.
  public var keeperShirt: String {
    let brighter = Self.linear(shirt) * 0.6 + SIMD3(repeating: 0.4)
    return Self.hex(brighter)
  }

  /// `#rrggbb` as linear-light red, green and blue.
  private static func linear(_ color: String) -> SIMD3<Double> {
    let (red, green, blue) = rgb(color) ?? (0, 0, 0)
    return SIMD3(LabColor.linear(red), LabColor.linear(green), LabColor.linear(blue))
  }

  /// Linear-light red, green and blue as `#rrggbb`.
  private static func hex(_ color: SIMD3<Double>) -> String {
    let digits = Array("0123456789abcdef")
    var text = "#"
    for channel in [color.x, color.y, color.z] {
      let value = LabColor.encoded(channel)
      text.append(digits[value / 16])
      text.append(digits[value % 16])
    }
    return text
  }
}
