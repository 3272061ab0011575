import Synchronization

/// The messages of one stream that several threads decide, sent in the order they were
/// decided, with no lock held while sending.
///
/// A thread decides its messages under the lock that orders them and `post`s them under that
/// same lock; if no other thread is sending, it becomes the sender and `drain`s (outside the
/// lock) until nothing is left, sending what others posted meanwhile too. So a message
/// decided later never overtakes one decided earlier, and a send that comes back into the
/// stream on the same thread (a socket closed by a failed write) only queues its messages.
final class OrderedOutbox<Item: Sendable>: Sendable {
  private struct State {
    var items: [Item] = []
    var sending = false
  }

  private let state = Mutex(State())

  /// Queues `items`; true when the caller must now `drain` (nobody else is sending).
  func post(_ items: [Item]) -> Bool {
    state.withLock { state in
      state.items += items
      guard !state.sending, !state.items.isEmpty else { return false }
      state.sending = true
      return true
    }
  }

  /// Sends everything queued, oldest first, a batch at a time, until nothing is left. Call it
  /// only after `post` said so.
  func drain(_ send: ([Item]) -> Void) {
    while let batch = take() { send(batch) }
  }

  private func take() -> [Item]? {
    state.withLock { state in
      guard !state.items.isEmpty else {
        state.sending = false
        return nil
      }
      defer { state.items = [] }
      return state.items
    }
  }
}
