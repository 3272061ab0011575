import Synchronization

/// Bounds one session's input log: past `maxInputs` inputs or `maxBytes` bytes of them the
/// session takes no more input and its sender is told why (`log-full`), so no client can fill
/// the disk through one session, however large or many its inputs.
///
/// NB: counts inputs accepted since this process started; a restored session starts again at
/// zero.
final class InputLogCap: Sendable {
  /// Which bound an input would pass.
  enum Bound: Equatable, Sendable {
    case count
    case bytes
  }

  /// Inputs one session may log.
  let maxInputs: Int
  /// Bytes of inputs (as logged, JSON) one session may log.
  let maxBytes: Int
  private let logged = Mutex<[String: (count: Int, bytes: Int)]>([:])

  init(maxInputs: Int, maxBytes: Int = .max) {
    self.maxInputs = maxInputs
    self.maxBytes = maxBytes
  }

  /// Counts one input of `bytes` for `sessionID`; the bound it would pass (and nothing
  /// counted) when the log is full.
  func admit(_ sessionID: String, bytes: Int = 0) -> Bound? {
    logged.withLock { logged in
      let (count, total) = logged[sessionID] ?? (0, 0)
      guard count < maxInputs else { return .count }
      guard total + bytes <= maxBytes else { return .bytes }
      logged[sessionID] = (count + 1, total + bytes)
      return nil
    }
  }

  /// What to tell the sender of an input refused at `bound`.
  func message(_ bound: Bound) -> String {
    switch bound {
    case .count:
      "this session has logged \(maxInputs) inputs, the most one may; it takes no more input"
    case .bytes:
      "this session has logged nearly \(maxBytes) bytes of input, the most one may; "
        + "it takes no more input"
    }
  }

  /// Forgets a session that is gone.
  func forget(_ sessionID: String) {
    _ = logged.withLock { $0.removeValue(forKey: sessionID) }
  }
}
