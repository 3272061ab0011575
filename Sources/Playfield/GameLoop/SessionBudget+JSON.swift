import JSON

extension SessionBudget {
  /// The `budget` object of a `status` message (docs/protocol.md).
  func write(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.field("throttled", throttled)
    writer.field("every", interval)
    writer.field("costMs", cost, decimals: 3)
    writer.field("shareMs", share, decimals: 3)
    writer.endObject()
  }
}
