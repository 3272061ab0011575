extension Palette {
  /// Entries in each smooth palette's lookup table.
  static let gradientSize = 1024

  /// Where a smooth count lands on the gradient: s = (sqrt(μ) - 1)/4 starts the gradient at
  /// the far field (μ ≈ 1) and runs one cycle to μ = 25, the next to 81, then 169, so bands
  /// keep a similar width as counts grow with depth.
  @inline(__always)
  static func gradientIndex(smoothCount μ: Float, cyclic: Bool) -> Int {
    let s = (max(μ, 0).squareRoot() - 1) * 0.25
    let fraction = s - s.rounded(.down)
    let position = cyclic ? fraction : 1 - abs(1 - 2 * fraction)
    return min(Int(position * Float(gradientSize - 1) + 0.5), gradientSize - 1)
  }

  /// Whether the gradient wraps from its end back to its start (else it is walked there and back).
  var isCyclic: Bool { self == .ultra }

  /// The gradient's control points: position in [0, 1] and colour.
  var stops: [(position: Double, colour: RGB)] {
    switch self {
    case .classic:
      return [(0, RGB(0, 0, 255)), (0.5, RGB(255, 255, 0)), (1, RGB(255, 0, 0))]
    case .ultra:
      return [
        (0, RGB(0, 7, 100)), (0.16, RGB(32, 107, 203)), (0.42, RGB(237, 255, 255)),
        (0.6425, RGB(255, 170, 0)), (0.8575, RGB(0, 2, 0)), (1, RGB(0, 7, 100)),
      ]
    case .fire:
      return [
        (0, RGB(8, 0, 0)), (0.3, RGB(150, 20, 0)), (0.55, RGB(240, 110, 0)),
        (0.8, RGB(255, 210, 60)), (1, RGB(255, 255, 230)),
      ]
    case .ocean:
      return [
        (0, RGB(2, 8, 40)), (0.3, RGB(0, 70, 130)), (0.6, RGB(0, 170, 170)),
        (0.85, RGB(120, 230, 200)), (1, RGB(240, 255, 250)),
      ]
    case .gray:
      return [(0, RGB(0, 0, 0)), (1, RGB(255, 255, 255))]
    }
  }

  /// `gradientSize` colours interpolated linearly between the stops.
  var gradient: [RGB] {
    Self.gradients[self] ?? []
  }

  private static let gradients: [Palette: [RGB]] = Dictionary(
    uniqueKeysWithValues: allCases.map { ($0, $0.interpolatedGradient()) })

  private func interpolatedGradient() -> [RGB] {
    let stops = stops
    return (0..<Self.gradientSize).map { index in
      let position = Double(index) / Double(Self.gradientSize - 1)
      let upper = stops.firstIndex { $0.position >= position } ?? stops.count - 1
      guard upper > 0 else { return stops[0].colour }
      let (p0, c0) = stops[upper - 1]
      let (p1, c1) = stops[upper]
      let t = (position - p0) / (p1 - p0)
      func mix(_ a: UInt8, _ b: UInt8) -> Double {
        (Double(a) + (Double(b) - Double(a)) * t) / 255
      }
      return RGB(
        unit: mix(c0.red, c1.red), mix(c0.green, c1.green), mix(c0.blue, c1.blue))
    }
  }
}
