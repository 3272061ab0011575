extension TagCloud: ChartReadouts {
  /// The first tag's centre in view px, as the frame places it (0, 0 without tags).
  public static var readoutNames: [String] { ["tag0X", "tag0Y"] }

  public func writeReadouts(into values: inout BatchValues) {
    guard let first = Self.spiral(state.tags.count).first else {
      values.append(0)
      values.append(0)
      return
    }
    let point = state.rotation.apply(first.x, first.y, first.z)
    values.append(settings.width / 2 + settings.radius * point.x, decimals: 2)
    values.append(settings.height / 2 + settings.radius * point.y, decimals: 2)
  }
}
