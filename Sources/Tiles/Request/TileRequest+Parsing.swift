extension TileRequest {
  /// Parses the part of a tile URL after `/tiles/mandelbrot/`: `Z/X/Y.png` or `Z/X/Y.counts`,
  /// and the raw query string (without `?`), or nil when there is none.
  public static func parse(
    path: Substring, query: Substring?
  ) throws(TileRequestError) -> TileRequest {
    let parts = path.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 3 else {
      throw TileRequestError(
        .notFound, "a tile path is Z/X/Y.png or Z/X/Y.counts, not \(TileRequestError.quote(path))")
    }
    return try parse(zoom: parts[0], x: parts[1], file: parts[2], query: query)
  }

  /// Parses the three path segments, the last with its suffix (`Y.png` or `Y.counts`), and
  /// the raw query string.
  public static func parse(
    zoom: Substring, x: Substring, file: Substring, query: Substring?
  ) throws(TileRequestError) -> TileRequest {
    guard let format = TileFormat.allCases.first(where: { file.hasSuffix($0.suffix) }) else {
      throw TileRequestError(
        .notFound,
        "a tile is Z/X/Y.png or Z/X/Y.counts, not \(TileRequestError.quote(file)) at the end")
    }
    return try parse(
      zoom: zoom, x: x, y: file.dropLast(format.suffix.count), format: format, query: query)
  }

  /// Parses the three path segments (the last without its suffix) and the raw query string,
  /// for a tile in `format`.
  public static func parse(
    zoom: Substring, x: Substring, y: Substring, format: TileFormat = .png, query: Substring?
  ) throws(TileRequestError) -> TileRequest {
    let z = try pathNumber(zoom, name: "zoom")
    guard z <= TileCoordinate.maxZoom else {
      throw TileRequestError(
        .badRequest, "zoom \(z) is deeper than level \(TileCoordinate.maxZoom), the deepest served")
    }
    let column = try pathIndex(x, name: "x")
    let row = try pathIndex(y, name: "y")
    for (name, value) in [("x", column), ("y", row)] where value.bitWidth > z {
      let range = z <= 62 ? "0...\((1 << z) - 1)" : "0..<2^\(z)"
      throw TileRequestError(
        .badRequest,
        "\(name) \(TileRequestError.quote(Substring(value.description))) is outside \(range) at zoom \(z)"
      )
    }
    var request = TileRequest(tile: TileCoordinate(zoom: z, x: column, y: row)!, format: format)
    try request.apply(query: query)
    return request
  }

  /// Sets `iterations`, `palette` (PNGs only) and `format` from `query`: `&`-separated
  /// `name=value` pairs, each name at most once; empty pairs are ignored. `format=counts` on
  /// `Z/X/Y.png` is the same request as `Z/X/Y.counts`; `format=png` changes nothing.
  private mutating func apply(query: Substring?) throws(TileRequestError) {
    guard let query else { return }
    var seen: Set<Substring> = []
    let named = query.split(separator: "&").first { $0.hasPrefix("format=") }
    if let pair = named {
      let value = pair.dropFirst("format=".count)
      guard let chosen = TileFormat(rawValue: String(value)) else {
        throw TileRequestError(
          .badRequest,
          "unknown format \(TileRequestError.quote(value)); known: \(TileFormat.allCases.map(\.rawValue).joined(separator: ", "))"
        )
      }
      guard format == .png || chosen == format else {
        throw TileRequestError(
          .badRequest,
          "format \(TileRequestError.quote(value)) contradicts the path's .\(format.rawValue); ask for Z/X/Y.png?format=\(value)"
        )
      }
      format = chosen
    }
    for pair in query.split(separator: "&") {
      guard let equals = pair.firstIndex(of: "=") else {
        throw TileRequestError(
          .badRequest, "query parameter \(TileRequestError.quote(pair)) has no value")
      }
      let name = pair[..<equals]
      let value = pair[pair.index(after: equals)...]
      guard seen.insert(name).inserted else {
        throw TileRequestError(
          .badRequest, "query parameter \(TileRequestError.quote(name)) is given twice")
      }
      switch name {
      case "iter":
        iterations = try Self.iterations(value)
      case "format":
        break  // NB: read before the loop, so that `palette` knows the format.
      case "palette":
        guard format == .png else {
          throw TileRequestError(
            .badRequest, "counts have no palette; ask for Z/X/Y.png to choose one")
        }
        guard let named = Palette(rawValue: String(value)) else {
          throw TileRequestError(
            .badRequest,
            "unknown palette \(TileRequestError.quote(value)); known: \(Palette.names.joined(separator: ", "))"
          )
        }
        palette = named
      default:
        throw TileRequestError(
          .badRequest,
          "unknown query parameter \(TileRequestError.quote(name)); known: iter, palette, format")
      }
    }
  }

  private static func iterations(_ text: Substring) throws(TileRequestError) -> Int {
    let range = "\(iterationRange.lowerBound) to \(iterationRange.upperBound)"
    guard let value = decimal(text), iterationRange.contains(value) else {
      throw TileRequestError(
        .badRequest,
        "iter must be a whole number from \(range), not \(TileRequestError.quote(text))")
    }
    return value
  }

  private static func pathNumber(_ text: Substring, name: String) throws(TileRequestError) -> Int {
    if let value = decimal(text) { return value }
    throw pathError(text, name: name)
  }

  /// A column or row: a canonical decimal of any length up to `maxIndexDigits`.
  private static func pathIndex(
    _ text: Substring, name: String
  ) throws(TileRequestError) -> TileIndex {
    guard isCanonical(text), text.count <= maxIndexDigits, let value = TileIndex(decimal: text)
    else { throw pathError(text, name: name) }
    return value
  }

  /// Digits in 2^maxZoom, the longest column or row number.
  static let maxIndexDigits = Int(Double(TileCoordinate.maxZoom) * 0.30103) + 1

  private static func pathError(_ text: Substring, name: String) -> TileRequestError {
    let digits = text.drop { $0 == "-" || $0 == "+" }
    let reason: String
    if text.isEmpty {
      reason = "is empty"
    } else if !digits.isEmpty && digits.count == text.count - 1 && digits.allSatisfy(\.isDigit) {
      reason = text.first == "-" ? "is negative" : "has a sign"
    } else if !text.allSatisfy(\.isDigit) {
      reason = "is not a number"
    } else if text.first == "0" {
      reason = "has a leading zero"
    } else {
      reason = "is far too large"
    }
    return TileRequestError(
      .notFound,
      "\(name) \(TileRequestError.quote(text)) \(reason); it must be a whole number without sign or leading zeros"
    )
  }

  /// Whether `text` is ASCII digits without a leading zero (except "0" itself).
  private static func isCanonical(_ text: Substring) -> Bool {
    !text.isEmpty && text.allSatisfy(\.isDigit) && (text.first != "0" || text.count == 1)
  }

  /// The value of a canonical decimal: ASCII digits only, no sign, no leading zero (except
  /// "0" itself), at most 15 digits; nil otherwise.
  static func decimal(_ text: Substring) -> Int? {
    guard !text.isEmpty, text.count <= 15, text.allSatisfy(\.isDigit) else { return nil }
    guard text.first != "0" || text.count == 1 else { return nil }
    return text.reduce(0) { $0 * 10 + Int($1.asciiValue! - 48) }
  }
}

extension Character {
  /// Whether this is one of the ASCII digits 0-9.
  ///
  /// NB: not `("0"..."9").contains(self)`: a digit with a combining mark ("1\u{5A1}") sorts
  /// inside that range, has no `asciiValue`, and crashed `decimal` (found by fuzzing).
  fileprivate var isDigit: Bool { asciiValue.map { (48...57).contains($0) } ?? false }
}
