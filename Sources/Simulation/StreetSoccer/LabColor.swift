/// A colour in CIELAB (D65 white): L* lightness 0 to 100, a* green−red, b* blue−yellow.
public struct LabColor: Sendable, Equatable {
  public var l: Double
  public var a: Double
  public var b: Double

  /// A colour from its coordinates.
  public init(l: Double, a: Double, b: Double) {
    self.l = l
    self.a = a
    self.b = b
  }

  /// The colour of an sRGB pixel given as linear-light red, green and blue, each 0 to 1
  /// (IEC 61966-2-1 primaries, D65 white).
  public init(linearRed red: Double, green: Double, blue: Double) {
    let x = 0.412_456_4 * red + 0.357_576_1 * green + 0.180_437_5 * blue
    let y = 0.212_672_9 * red + 0.715_152_2 * green + 0.072_175_0 * blue
    let z = 0.019_333_9 * red + 0.119_192_0 * green + 0.950_304_1 * blue
    let fx = Self.f(x / 0.950_47)
    let fy = Self.f(y)
    let fz = Self.f(z / 1.088_83)
    l = 116 * fy - 16
    a = 500 * (fx - fy)
    b = 200 * (fy - fz)
  }

  /// CIE 1976's f(t): the cube root above (6/29)^3, a line below.
  private static func f(_ t: Double) -> Double {
    let epsilon = 216.0 / 24_389.0
    guard t > epsilon else { return (24_389.0 / 27.0 * t + 16) / 116 }
    return DeterministicMath.pow(t, 1.0 / 3.0)
  }

  /// An sRGB channel (0 to 255) as linear light (0 to 1), by the sRGB transfer function.
  public static func linear(_ channel: Int) -> Double {
    let value = Double(channel) / 255
    guard value > 0.040_45 else { return value / 12.92 }
    return DeterministicMath.pow((value + 0.055) / 1.055, 2.4)
  }

  /// Linear light (0 to 1) as an sRGB channel (0 to 255, rounded).
  public static func encoded(_ linear: Double) -> Int {
    let clamped = min(1, max(0, linear))
    let value =
      clamped <= 0.003_130_8
      ? 12.92 * clamped : 1.055 * DeterministicMath.pow(clamped, 1 / 2.4) - 0.055
    return Int((value * 255).rounded())
  }
}
