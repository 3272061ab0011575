import JSON
import Logging
import Storage
import Synchronization

/// Sessions made durable in SQLite: creation at once, everything else through the
/// write-behind `SessionWriter` (one transaction every 250 ms, retried on failure).
final class StorageJournal: SessionJournal {
  let store: SQLiteSessionStore
  let writer: SessionWriter
  let logger: Logger
  /// The database file check last seen, so a change is logged once.
  let lastFileCheck = Mutex(DatabaseFileCheck.same)

  init(store: SQLiteSessionStore, logger: Logger) {
    self.store = store
    self.writer = SessionWriter(store: store)
    self.logger = logger
  }

  func created(
    sessionID: String, kind: String, config: JSONValue, seed: UInt64, token: String, now: Double
  ) throws {
    let file = checkFile()
    guard file == .same else { throw file }
    let evicted = try store.createSession(
      StoredSession(
        id: sessionID, kind: kind, config: config.jsonString, seed: seed, token: token, now: now))
    if !evicted.isEmpty {
      logger.info("storage evicted old sessions: \(evicted.joined(separator: ", "))")
    }
  }

  func renewSeatLinks(sessionID: String) throws -> Int64? {
    try store.renewSeatLinks(sessionID: sessionID)
  }

  func inputs(sessionID: String, tick: UInt64, inputs: [JSONValue]) {
    for (seq, input) in inputs.enumerated() {
      let accepted = writer.append(
        LoggedInput(
          sessionID: sessionID, tick: Int64(tick), seq: Int64(seq), input: input.jsonString))
      if !accepted {
        logger.error("storage backlog is full; an input of session \(sessionID) was not stored")
      }
    }
  }

  func progress(sessionID: String, running: Bool, tick: UInt64, now: Double) {
    writer.update(
      SessionProgress(
        sessionID: sessionID, status: running ? .running : .paused, tick: Int64(tick),
        updatedAt: now))
  }

  func snapshot(sessionID: String, tick: UInt64, state: [UInt8]) {
    writer.save(Snapshot(sessionID: sessionID, tick: Int64(tick), state: state))
  }

  func deleted(sessionID: String) {
    writer.forget(sessionID: sessionID)
    do {
      _ = try store.deleteSession(id: sessionID)
    } catch {
      logger.error("cannot delete stored session \(sessionID): \(error)")
    }
  }

  /// Writes everything queued and closes the writer (SIGTERM).
  func close() {
    if !writer.close(timeout: 5) {
      logger.error("storage did not finish writing: \(writer.status.summary)")
    }
    try? store.checkpoint()
  }
}
