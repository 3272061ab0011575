/// What one client (an address group) may have read from its connections on one event loop in
/// one turn of it: bytes taken from its sockets and messages handed to their handlers.
///
/// An event loop serves its connections in turns: each turn it waits for its sockets, reads
/// the ready ones, then runs the work other threads handed it (frames to send). A client past
/// its budget in a turn has its connections read no further until the next turn, so one
/// client's flood of small messages costs that client's connections, and every other tenant of
/// the loop is read, and sent its frames, every turn. An idle loop turns over in microseconds,
/// so a client alone on its loop is hardly slowed.
public struct ReadBudget: Sendable, Equatable {
  /// Bytes one client's connections may read in one turn.
  public var bytes: Int
  /// Messages (WebSocket messages, HTTP requests) one client's connections may hand to their
  /// handlers in one turn.
  public var messages: Int

  public init(bytes: Int, messages: Int) {
    self.bytes = bytes
    self.messages = messages
  }
}
