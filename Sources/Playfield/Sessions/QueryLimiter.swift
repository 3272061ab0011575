import Synchronization

/// Questions (`Simulation.queries`: street soccer's `plan`) a client has waiting for their
/// answers, across its connections and sessions: past `perClient`, more are refused
/// (`too-many`) until answers come, so one client's questions cannot fill the inboxes of the
/// sessions, nor take their ticks. A session gives a question back once it has answered it
/// (`LiveSession`).
final class QueryLimiter: Sendable {
  /// Questions one client may have waiting.
  let perClient: Int
  /// Waiting questions per client, and per socket (with its client).
  private let waiting = Mutex<
    (clients: [ClientKey: Int], sockets: [ObjectIdentifier: (client: ClientKey, count: Int)])
  >(([:], [:]))

  init(perClient: Int) {
    self.perClient = perClient
  }

  /// Counts a question of `client` sent on `socket`; false (nothing counted) at the bound.
  func begin(_ client: ClientKey, socket: ObjectIdentifier) -> Bool {
    waiting.withLock { waiting in
      let mine = waiting.clients[client, default: 0]
      guard mine < perClient else { return false }
      waiting.clients[client] = mine + 1
      waiting.sockets[socket] = (client, (waiting.sockets[socket]?.count ?? 0) + 1)
      return true
    }
  }

  /// `count` questions sent on `socket` were answered (or dropped).
  func end(socket: ObjectIdentifier, count: Int = 1) {
    waiting.withLock { waiting in
      guard let (client, asked) = waiting.sockets[socket] else { return }
      let answered = min(count, asked)
      waiting.sockets[socket] = asked > answered ? (client, asked - answered) : nil
      let left = waiting.clients[client, default: 0] - answered
      waiting.clients[client] = left > 0 ? left : nil
    }
  }

  /// Questions `client` has waiting.
  func count(of client: ClientKey) -> Int {
    waiting.withLock { $0.clients[client] ?? 0 }
  }

  /// What to tell a client at the bound.
  var message: String {
    "you have \(perClient) questions waiting for their answers, the most one client may; "
      + "wait for them"
  }
}
