import JSON

extension StreetSoccer {
  /// A team's kit: shirt, shorts, and a pattern on the shirt in a second colour. Colours are
  /// `#rrggbb` (sRGB), kept in lowercase.
  public struct Kit: Codable, Sendable, Equatable {
    /// How the pattern colour sits on the shirt.
    public enum Pattern: String, Codable, Sendable, CaseIterable {
      /// No pattern.
      case plain
      /// Vertical stripes.
      case stripes
      /// Horizontal bands.
      case hoops
      /// The left half in the pattern colour.
      case halves
      /// A diagonal band from shoulder to hip.
      case sash

      /// The share of the shirt the pattern colour covers.
      var coverage: Double {
        switch self {
        case .plain: 0
        case .stripes, .hoops, .halves: 0.5
        case .sash: 0.25
        }
      }
    }

    public var shirt: String
    public var shorts: String
    public var pattern: Pattern
    public var patternColor: String

    /// A kit; colours must be `#rrggbb` (see `init(json:field:)` for checked input).
    public init(shirt: String, shorts: String, pattern: Pattern, patternColor: String) {
      self.shirt = shirt
      self.shorts = shorts
      self.pattern = pattern
      self.patternColor = patternColor
    }

    /// Home's kit unless the config says otherwise: red shirts, white shorts.
    static let home = Kit(
      shirt: "#d62828", shorts: "#ffffff", pattern: .plain, patternColor: "#ffffff")
    /// Away's kit unless the config says otherwise: blue and white stripes, blue shorts.
    static let away = Kit(
      shirt: "#1d4ed8", shorts: "#1d4ed8", pattern: .stripes, patternColor: "#ffffff")

    /// Reads `{"shirt", "shorts", "pattern", "patternColor"}`; every field is required and
    /// errors name it, e.g. `homeKit.shirt: must be a colour like "#ff8800"`.
    init(json: JSONValue, field: String) throws(SimulationError) {
      var fields = try FieldReader(json, context: field, prefix: field + ".")
      try self.init(fields: &fields)
      try fields.finish()
    }

    /// Reads the kit fields of a message (the `kit` input) from its own reader.
    init(fields: inout FieldReader) throws(SimulationError) {
      shirt = try Self.color(&fields, "shirt")
      shorts = try Self.color(&fields, "shorts")
      pattern = Pattern(
        rawValue: try fields.choice("pattern", among: Pattern.allCases.map(\.rawValue)))!
      patternColor = try Self.color(&fields, "patternColor")
    }

    /// The kit as JSON, as configs and inputs give it.
    public var json: JSONValue {
      [
        "shirt": .string(shirt), "shorts": .string(shorts), "pattern": .string(pattern.rawValue),
        "patternColor": .string(patternColor),
      ]
    }

    /// Writes the kit's fields, and the goalkeeper's brighter shirt as `keeper`, into an
    /// object the caller has begun.
    func writeFields(into writer: inout JSONWriter) {
      writer.field("shirt", shirt)
      writer.field("shorts", shorts)
      writer.field("pattern", pattern.rawValue)
      writer.field("patternColor", patternColor)
      writer.field("keeper", keeperShirt)
    }

    /// A colour field: `#rrggbb` in either case, kept in lowercase.
    private static func color(_ fields: inout FieldReader, _ name: String) throws(SimulationError)
      -> String
    {
      let problem = "must be a colour like \"#ff8800\""
      guard let text = fields.raw(name)?.stringValue?.lowercased() else {
        throw SimulationError(field: fields.path(name), message: "is required; \(problem)")
      }
      guard rgb(text) != nil else {
        throw SimulationError(field: fields.path(name), message: problem)
      }
      return text
    }

    /// The channels of `#rrggbb` (0 to 255 each), or nil if `text` is not such a colour.
    static func rgb(_ text: String) -> (red: Int, green: Int, blue: Int)? {
      let bytes = Array(text.utf8)
      guard bytes.count == 7, bytes[0] == UInt8(ascii: "#") else { return nil }
      var channels: [Int] = []
      for index in stride(from: 1, to: 7, by: 2) {
        guard let high = hexDigit(bytes[index]), let low = hexDigit(bytes[index + 1]) else {
          return nil
        }
        channels.append(high * 16 + low)
      }
      return (channels[0], channels[1], channels[2])
    }

    private static func hexDigit(_ byte: UInt8) -> Int? {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
      default: nil
      }
    }
  }
}
