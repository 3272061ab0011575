/// How escape counts become colours; chosen with `?palette=NAME`. The set itself is black in all.
public enum Palette: String, Sendable, Hashable, CaseIterable {
  /// The seed's scheme on the raw count: f = n/max; f ≤ 0.5 → rgb(2f, 2f, 1-2f), else
  /// rgb(1, 2-2f, 0); channels rounded as floor(v·255 + 0.5). The default.
  case classic
  /// Ultra Fractal's well-known default gradient, deep blue through white to orange, on the
  /// smooth count.
  case ultra
  /// Black, ember red, orange, yellow and white, on the smooth count.
  case fire
  /// Navy, teal, aquamarine and foam white, on the smooth count.
  case ocean
  /// Black to white and back, on the smooth count.
  case gray

  /// The palette used when the query names none.
  public static let `default` = Palette.classic

  /// Whether the palette colours the continuous count n + 1 - log2(log2|z|), and so needs a
  /// render with `smooth: true`.
  public var isSmooth: Bool { self != .classic }

  /// The names `?palette=` accepts, in a stable order.
  public static var names: [String] { allCases.map(\.rawValue) }
}
