import JSON

extension SessionAPI {
  /// The largest seed a client may choose: every integer up to it is exact in JSON's doubles.
  static let maxSeed: Double = 9_007_199_254_740_991

  /// A new session's `seed` field: absent (a random seed) or a whole number 0 to 2^53 − 1.
  static func seed(_ value: JSONValue?) throws(APIError) -> UInt64? {
    guard let value else { return nil }
    guard case .number(let number) = value, number.rounded() == number, number >= 0,
      number <= maxSeed
    else {
      throw APIError(
        .badRequest, "seed must be a whole number from 0 to 9007199254740991", field: "seed")
    }
    return UInt64(number)
  }
}
