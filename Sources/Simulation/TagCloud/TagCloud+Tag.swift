import JSON

extension TagCloud {
  /// One label on the sphere.
  struct Tag: Codable, Sendable, Equatable {
    /// The label, 1 to 64 characters.
    var text: String
    /// Relative importance (0.1 to 10): heavier tags are drawn larger.
    var weight: Double
    /// Where a click goes: empty, `http(s)://...`, or a path starting with `/`.
    var url: String

    /// A tag from a string, or from an object `{text, weight?, url?}`.
    init(json: JSONValue, field: String) throws(SimulationError) {
      if json.stringValue != nil {
        text = try FieldReader.text(json, field: field, maxLength: 64)
        weight = 1
        url = ""
        return
      }
      var fields = try FieldReader(json, context: field, prefix: field + ".")
      text = try fields.text("text", maxLength: 64)
      weight = try fields.number("weight", in: 0.1...10, default: 1)
      url =
        try fields.raw("url").map { value throws(SimulationError) in
          // NB: an empty url is allowed and means "not a link".
          value.stringValue == ""
            ? "" : try FieldReader.text(value, field: field + ".url", maxLength: 2_048)
        } ?? ""
      try fields.finish()
      guard url.isEmpty || Self.isSafeLink(url) else {
        throw SimulationError(
          field: field + ".url", message: Self.linkRule)
      }
    }

    init(text: String, weight: Double = 1, url: String = "") {
      self.text = text
      self.weight = weight
      self.url = url
    }

    static let linkRule =
      "must start with http://HOST, https://HOST or a single /, with no backslash or space"

    /// Only web links with a host and site paths: never `javascript:` or other schemes.
    ///
    /// NB: browsers read `\` as `/` and drop tabs and newlines (WHATWG URL), so `/\evil` and
    /// `/<TAB>/evil` would leave the site; a link may hold no backslash, control or space.
    static func isSafeLink(_ url: String) -> Bool {
      guard !url.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\\") })
      else { return false }
      for scheme in ["https://", "http://"] where url.hasPrefix(scheme) {
        let authority = url.dropFirst(scheme.count).prefix { !"/?#".contains($0) }
        let host =
          authority.split(separator: "@").last?.split(
            separator: ":", omittingEmptySubsequences: false
          ).first ?? ""
        return !host.isEmpty && !authority.hasPrefix("@")
      }
      return url.hasPrefix("/") && !url.hasPrefix("//")
    }

    var json: JSONValue {
      ["text": .string(text), "weight": .number(weight), "url": .string(url)]
    }

    /// A list of 1 to 200 tags.
    static func list(json: JSONValue, field: String) throws(SimulationError) -> [Tag] {
      guard let items = json.arrayValue, (1...200).contains(items.count) else {
        throw SimulationError(field: field, message: "must be an array of 1 to 200 tags")
      }
      var tags: [Tag] = []
      for (index, item) in items.enumerated() {
        tags.append(try Tag(json: item, field: "\(field)[\(index)]"))
      }
      return tags
    }
  }
}
