extension SphereRequest {
  /// Parses the two path segments after `/api/spheres/` and the decoded query pairs.
  public static func parse(
    radius radiusText: Substring, level levelText: Substring,
    query: [(name: String, value: String)] = []
  ) throws(SphereRequestError) -> SphereRequest {
    let radius = try parseRadius(radiusText)
    var levelPart = levelText
    var format = Format.json
    var formatInPath = false
    if levelPart.hasSuffix(".bin") {
      (levelPart, format, formatInPath) = (levelPart.dropLast(4), .binary, true)
    } else if levelPart.hasSuffix(".json") {
      (levelPart, formatInPath) = (levelPart.dropLast(5), true)
    }
    let level = try parseLevel(levelPart)
    var request = SphereRequest(
      radius: radius, level: level, format: format, formatInPath: formatInPath)
    for (name, value) in query where name == "surface" {
      switch value {
      case "1", "true", "yes": request.surface = true
      case "0", "false", "no", "": request.surface = false
      default:
        throw SphereRequestError(
          field: "surface", "surface must be 1 or 0, not \(SphereRequestError.quote(value))")
      }
    }
    return request
  }

  /// A plain decimal: digits, at most one point, an optional exponent; positive and finite.
  static func parseRadius(_ text: Substring) throws(SphereRequestError) -> Double {
    let shown = SphereRequestError.quote(text)
    guard text.utf8.count <= 32, isDecimal(text), let value = Double(text) else {
      throw SphereRequestError(
        field: "radius", "the radius must be a positive decimal number, not \(shown)")
    }
    guard value.isFinite, value <= maxRadius else {
      throw SphereRequestError(field: "radius", "the radius must be at most 1e9, not \(shown)")
    }
    let mantissa = text.prefix { $0 != "e" && $0 != "E" }
    // NB: 1e-400 is not 0 but reads as 0 in a double; say so rather than "not above 0".
    if value == 0, mantissa.contains(where: { $0 >= "1" && $0 <= "9" }) {
      throw SphereRequestError(
        field: "radius", "the radius \(shown) is too small for a double: it would read as 0")
    }
    guard value > 0 else {
      throw SphereRequestError(field: "radius", "the radius must be greater than 0, not \(shown)")
    }
    return value
  }

  static func parseLevel(_ text: Substring) throws(SphereRequestError) -> Int {
    let range = "\(levels.lowerBound) to \(levels.upperBound)"
    let shown = SphereRequestError.quote(text)
    guard !text.isEmpty, text.utf8.count <= 3, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
      let value = Int(text)
    else {
      throw SphereRequestError(
        field: "level", "the level must be a whole number from \(range), not \(shown)")
    }
    guard levels.contains(value) else {
      throw SphereRequestError(field: "level", "the level must be from \(range), not \(value)")
    }
    return value
  }

  /// `12`, `0.5`, `.5`, `1e-3`, `2.5E+2`: no sign, no hex, no `inf` or `nan`.
  private static func isDecimal(_ text: Substring) -> Bool {
    var digits = 0
    var seenPoint = false
    var index = text.utf8.startIndex
    let utf8 = text.utf8
    while index < utf8.endIndex {
      let byte = utf8[index]
      if byte >= 48 && byte <= 57 {
        digits += 1
      } else if byte == UInt8(ascii: "."), !seenPoint {
        seenPoint = true
      } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
        guard digits > 0 else { return false }
        var exponent = utf8[utf8.index(after: index)...]
        if let sign = exponent.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
          exponent = exponent.dropFirst()
        }
        return !exponent.isEmpty && exponent.allSatisfy { $0 >= 48 && $0 <= 57 }
      } else {
        return false
      }
      index = utf8.index(after: index)
    }
    return digits > 0
  }
}
