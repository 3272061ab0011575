import WebSocket

/// What waits for a live session's owner (`LiveSession`), under one lock: its clients'
/// commands in the order sent, and what other threads asked of it (a delete, a park or a lost
/// lease closes it; a finished restore lets its commands through). Whoever holds the session's
/// turn next reads it and carries it out; no other thread touches the machine.
struct SessionMailbox {
  /// Commands from clients, in order, for the next tick (realtime) or job (on demand).
  var commands: [SessionCommand] = []
  /// The close a delete, a park or a lost lease asked for (the first one wins). From then on
  /// nothing more is applied, and the next turn closes every client (`closed` once done).
  var close: (code: WebSocketCloseCode, reason: String)?
  /// Whether a turn has carried out `close`.
  var closed = false
  /// Whether the model is still being rebuilt from storage (`SessionCatchUp`): until then it
  /// takes no tick, no step and no batch part, and its commands wait here.
  var restoring: Bool
  /// On demand: a job to drain `commands` is submitted and not over (one at a time).
  var drainSubmitted = false
  /// On demand: it stepped since the game loop last showed it.
  var unshown = false

  /// Whether a close is asked for and no turn has carried it out yet.
  var closePending: Bool { close != nil && !closed }
}
