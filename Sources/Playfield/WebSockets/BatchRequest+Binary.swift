import Simulation

extension BatchRequest {
  /// The binary form of the plainest `step` (every attached session in slot order, one action
  /// each, one count), for clients that hold their actions as an array (docs/protocol.md
  /// "Batch stepping"): no JSON to write or read on either side.
  ///
  ///     0   4 bytes  "PFS1"
  ///     4   u32      the request's id (repeated in the reply)
  ///     8   u32      n, the sessions: every attached one, slot 0 to n - 1
  ///     12  u32      count, ticks per session
  ///     16  n*a f64  each session's action (a numbers: the action's fields), row by row
  static let binaryMagic: [UInt8] = Array("PFS1".utf8)

  /// The request id of a binary step, when it has one (for its error).
  static func binaryID(_ bytes: [UInt8]) -> UInt32? {
    guard bytes.count >= 8, Array(bytes[0..<4]) == binaryMagic else { return nil }
    return word(bytes, at: 4)
  }

  /// A binary step's id and entries, checked whole as the JSON form's.
  static func binary(
    _ bytes: [UInt8], sessions: [LiveSession], model: any BatchStepping.Type, width: Int,
    limit: Int, maxCount: Int
  ) -> Result<(request: UInt32, entries: [BatchStep.Entry]), ClientError> {
    guard bytes.count >= 16, Array(bytes[0..<4]) == binaryMagic else {
      return .failure(
        ClientError(
          "bad-message",
          "a binary step starts with \"PFS1\", then u32 id, u32 n, u32 count (16 bytes)"))
    }
    let request = word(bytes, at: 4)
    let n = Int(word(bytes, at: 8))
    let count = Int(word(bytes, at: 12))
    guard n == sessions.count else {
      return .failure(
        ClientError(
          "bad-field",
          "a binary step steps every attached session (\(sessions.count)), not \(n)",
          field: "slots"))
    }
    // NB: as a text step without slots: past the limit, list the slots (in JSON).
    if case .failure(let error) = slots(nil, attached: n, limit: limit) { return .failure(error) }
    guard (1...maxCount).contains(count) else {
      return .failure(
        ClientError(
          "bad-field", "count must be an integer from 1 to \(maxCount)", field: "count"))
    }
    guard bytes.count == 16 + 8 * n * width else {
      return .failure(
        ClientError(
          "bad-message",
          "a binary step of \(n) sessions is \(16 + 8 * n * width) bytes: the header and "
            + "\(n) x \(width) little-endian f64, not \(bytes.count)", field: "actions"))
    }
    var entries: [BatchStep.Entry] = []
    entries.reserveCapacity(n)
    var numbers = [Double](repeating: 0, count: width)
    var at = 16
    for index in 0..<n {
      for field in 0..<width {
        numbers[field] = Double(bitPattern: double(bytes, at: at))
        at += 8
      }
      do {
        entries.append(
          BatchStep.Entry(
            session: sessions[index], inputs: [try model.batchInput(numbers)], count: count))
      } catch {
        return .failure(
          ClientError("bad-field", "actions[\(index)]: \(error.description)", field: "actions"))
      }
    }
    return .success((request, entries))
  }

  private static func word(_ bytes: [UInt8], at offset: Int) -> UInt32 {
    (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
  }

  private static func double(_ bytes: [UInt8], at offset: Int) -> UInt64 {
    (0..<8).reduce(0) { $0 | UInt64(bytes[offset + $1]) << (8 * $1) }
  }
}
