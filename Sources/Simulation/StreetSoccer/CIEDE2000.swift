/// The CIEDE2000 colour difference ΔE00 (CIE 142-2001), written from the equations of Sharma,
/// Wu and Dalal, "The CIEDE2000 color-difference formula: implementation notes, supplementary
/// test data, and mathematical observations", Color Res. Appl. 30(1), 2005, with the parametric
/// factors kL = kC = kH = 1. About 1 is a just-noticeable difference between large patches
/// seen side by side.
public enum CIEDE2000 {
  /// 25^7, which appears in G and R_C.
  private static let pow25To7 = 6_103_515_625.0

  /// ΔE00 between two colours (symmetric, 0 for equal colours).
  public static func difference(_ first: LabColor, _ second: LabColor) -> Double {
    // (2)–(7): a' stretched by G, C' and h' (degrees in [0, 360)).
    let meanC = (chroma(first.a, first.b) + chroma(second.a, second.b)) / 2
    let meanC7 = seventh(meanC)
    let g = 0.5 * (1 - (meanC7 / (meanC7 + pow25To7)).squareRoot())
    let a1 = (1 + g) * first.a
    let a2 = (1 + g) * second.a
    let c1 = chroma(a1, first.b)
    let c2 = chroma(a2, second.b)
    let h1 = hue(first.b, a1)
    let h2 = hue(second.b, a2)

    // (8)–(11): ΔL', ΔC', Δh', ΔH'.
    let deltaL = second.l - first.l
    let deltaC = c2 - c1
    var deltaH = 0.0
    if c1 * c2 != 0 {
      var deltaHue = h2 - h1
      if deltaHue > 180 { deltaHue -= 360 } else if deltaHue < -180 { deltaHue += 360 }
      deltaH = 2 * (c1 * c2).squareRoot() * DeterministicMath.sin(radians(deltaHue / 2))
    }

    // (12)–(22): the weighting functions and the rotation term.
    let meanL = (first.l + second.l) / 2
    let meanCPrime = (c1 + c2) / 2
    var meanH = h1 + h2
    if c1 * c2 != 0 {
      if abs(h1 - h2) > 180 { meanH += meanH < 360 ? 360 : -360 }
      meanH /= 2
    }
    let t =
      1 - 0.17 * cosine(meanH - 30) + 0.24 * cosine(2 * meanH) + 0.32 * cosine(3 * meanH + 6)
      - 0.20 * cosine(4 * meanH - 63)
    let hueOffset = (meanH - 275) / 25
    let deltaTheta = 30 * DeterministicMath.exp(-hueOffset * hueOffset)
    let meanC7Prime = seventh(meanCPrime)
    let rC = 2 * (meanC7Prime / (meanC7Prime + pow25To7)).squareRoot()
    let lightness = (meanL - 50) * (meanL - 50)
    let sL = 1 + 0.015 * lightness / (20 + lightness).squareRoot()
    let sC = 1 + 0.045 * meanCPrime
    let sH = 1 + 0.015 * meanCPrime * t
    let rT = -DeterministicMath.sin(radians(2 * deltaTheta)) * rC

    let l = deltaL / sL
    let c = deltaC / sC
    let h = deltaH / sH
    return max(0, l * l + c * c + h * h + rT * c * h).squareRoot()
  }

  private static func chroma(_ a: Double, _ b: Double) -> Double { (a * a + b * b).squareRoot() }

  private static func seventh(_ x: Double) -> Double {
    let x2 = x * x
    return x2 * x2 * x2 * x
  }

  /// h' in degrees, [0, 360); 0 for a neutral colour (a' = b = 0).
  private static func hue(_ b: Double, _ a: Double) -> Double {
    guard a != 0 || b != 0 else { return 0 }
    let degrees = DeterministicMath.atan2(b, a) * 180 / .pi
    return degrees < 0 ? degrees + 360 : degrees
  }

  private static func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }

  private static func cosine(_ degrees: Double) -> Double {
    DeterministicMath.cos(radians(degrees))
  }
}
