import Synchronization

/// Bounds one session's input log: past `maxInputs` the session takes no more input and its
/// controller is told why, so no client can fill the disk through one session.
///
/// NB: counts inputs accepted since this process started; a restored session starts again at
/// zero.
final class InputLogCap: Sendable {
  /// Inputs one session may log.
  let maxInputs: Int
  private let counts = Mutex<[String: Int]>([:])

  init(maxInputs: Int) {
    self.maxInputs = maxInputs
  }

  /// Counts one input for `sessionID`; false (and nothing counted) when the log is full.
  func admit(_ sessionID: String) -> Bool {
    counts.withLock { counts in
      guard counts[sessionID, default: 0] < maxInputs else { return false }
      counts[sessionID, default: 0] += 1
      return true
    }
  }

  /// Gives back the room of one admitted input that was refused and not logged.
  func refund(_ sessionID: String) {
    counts.withLock { counts in
      if let count = counts[sessionID], count > 0 { counts[sessionID] = count - 1 }
    }
  }

  /// Forgets a session that is gone.
  func forget(_ sessionID: String) {
    _ = counts.withLock { $0.removeValue(forKey: sessionID) }
  }
}
