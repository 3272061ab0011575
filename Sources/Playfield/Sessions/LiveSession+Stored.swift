import JSON
import Server
import Synchronization

/// The `stored` watermark (docs/protocol.md): each connection is told how many of its inputs
/// are in the committed log, as the writer commits them, and a `flush` is answered once every
/// input sent before it is. Only for a session with a journal (one kept in memory stores
/// nothing).
extension LiveSession {
  /// `socket` sent an input about to be queued (`withdrawn` if it is not); told at once that
  /// it is not stored now when the server cannot store and had not told it.
  func accepted(from socket: WebSocket) {
    guard journal != nil else { return }
    notify { $0.accepted(by: socket) }
  }

  /// The server cannot store inputs now (`StorageWatch`), for `why`: each connection that
  /// sent inputs is told (`unstored`, docs/protocol.md); nil: it stores them again, and those
  /// told get their watermark.
  func storing(problem why: String?) {
    guard journal != nil else { return }
    notify { marks in why.map { marks.cannotStore($0) } ?? marks.storesAgain() }
  }

  /// An input counted by `accepted(from:)` could not be queued.
  func withdrawn(from socket: WebSocket) {
    guard journal != nil else { return }
    watermarks.withLock { $0.withdrawn(by: socket) }
  }

  /// Answers `socket`'s `flush` with `id` now, or once its inputs so far are settled; an
  /// error when the session is not stored at all, or too many of the socket's flushes wait.
  func flushStored(_ socket: WebSocket, id: JSONValue?) -> ClientError? {
    guard journal != nil else {
      return ClientError(
        "not-stored", "this session is kept in memory only: nothing of it is stored")
    }
    var tooMany = false
    notify { marks in
      switch marks.flush(socket, id: id) {
      case .now(let notice): return [notice]
      case .waiting: return []
      case .tooMany:
        tooMany = true
        return []
      }
    }
    if tooMany {
      return ClientError(
        "too-many",
        "\(StoredWatermarks<WebSocket>.maxWaitingFlushes) flushes of this connection wait already; "
          + "wait for their answers")
    }
    return nil
  }

  /// The writer committed the session's log through `tick` (on the writer's thread).
  func stored(through tick: UInt64) {
    storedThrough.max(tick, ordering: .sequentiallyConsistent)
    notify { $0.stored(through: tick) }
  }

  /// Decides notices under the watermarks' lock and sends them in that order, whichever
  /// threads decide them (the writer's, the storage watch's, the session's, an event loop):
  /// sent outside the lock, a later watermark could reach a client before an earlier one
  /// (`OrderedOutbox`).
  func notify(
    _ decide: (inout StoredWatermarks<WebSocket>) -> [StoredWatermarks<WebSocket>.Notice]
  ) {
    let mustSend = watermarks.withLock { marks in notices.post(decide(&marks)) }
    if mustSend { notices.drain { tell($0) } }
  }

  /// The last tick through which the writer committed the session's log: every input it
  /// applied at or before it is durably stored (0 for a session not stored, or nothing yet).
  var storedTick: UInt64 {
    journal == nil ? 0 : storedThrough.load(ordering: .sequentiallyConsistent)
  }

  /// The tick at or before which every input the session applied is durably stored, for a
  /// session now at `tick` (a batch reply's `stored`): `tick` itself when every input it
  /// journaled is committed, else the last tick committed; 0 for a session not stored.
  func storedWatermark(at tick: UInt64) -> UInt64 {
    guard journal != nil else { return 0 }
    let stored = storedThrough.load(ordering: .sequentiallyConsistent)
    return stored >= loggedThrough.load(ordering: .sequentiallyConsistent) ? tick : stored
  }
}
