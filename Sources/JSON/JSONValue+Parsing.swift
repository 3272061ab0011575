extension JSONValue {
  /// Strict RFC 8259 parse of a whole document.
  ///
  /// Accepts any value at the top level (§2) surrounded by optional whitespace. Rejects trailing
  /// garbage, invalid UTF-8 (§8.1), lone surrogates in `\u` escapes (§8.2), leading zeros,
  /// `NaN`/`Infinity`, numbers beyond `Double`'s range (§6), raw control characters in strings
  /// (§7), a byte order mark, and nesting deeper than `maxDepth` arrays and objects.
  /// Duplicate object keys are accepted and the last one wins (§4 leaves this open).
  public static func parse(
    _ bytes: some Collection<UInt8>, maxDepth: Int = 64
  ) throws(JSONParseError) -> JSONValue {
    let result =
      bytes.withContiguousStorageIfAvailable { buffer in
        JSONParser.parse(buffer, maxDepth: maxDepth)
      }
      ?? Array(bytes).withUnsafeBufferPointer { buffer in
        JSONParser.parse(buffer, maxDepth: maxDepth)
      }
    return try result.get()
  }

  /// Strict RFC 8259 parse of a whole document given as text; see `parse(_:maxDepth:)`.
  public static func parse(_ text: String, maxDepth: Int = 64) throws(JSONParseError) -> JSONValue {
    var text = text
    let result = text.withUTF8 { buffer in JSONParser.parse(buffer, maxDepth: maxDepth) }
    return try result.get()
  }
}
