extension JSONValue: CustomStringConvertible {
  /// Compact serialization; object keys sorted by UTF-8 bytes so output is deterministic.
  /// Non-finite numbers (which `parse` never produces) are written as `null`.
  public func serialized() -> [UInt8] {
    var writer = JSONWriter()
    writer.value(self)
    return writer.bytes
  }

  /// `serialized()` as a string.
  public var jsonString: String { String(decoding: serialized(), as: UTF8.self) }

  /// The compact JSON text.
  public var description: String { jsonString }
}
