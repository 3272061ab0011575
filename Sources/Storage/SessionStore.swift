/// Durable sessions, their input logs and snapshots, high scores and saved mazes.
///
/// Every method may throw `SQLiteError` (a database fault) or `StoreError` (a refused request).
/// Times are unix seconds passed in by the caller; the store never reads the clock for them.
public protocol SessionStore: Sendable {
  /// Stores a new session and returns the ids of sessions evicted to stay under the limit.
  @discardableResult
  func createSession(_ session: StoredSession) throws -> [String]
  /// The session with this id, if stored.
  func session(id: String) throws -> StoredSession?
  /// All sessions, or those with `status`, most recently updated first.
  func listSessions(status: SessionStatus?) throws -> [StoredSession]
  /// Deletes a session with its inputs and snapshots; false when there was none.
  @discardableResult
  func deleteSession(id: String) throws -> Bool
  /// Deletes the sessions not updated since `cutoff` (unix seconds) and returns their ids.
  @discardableResult
  func deleteSessions(updatedBefore cutoff: Double) throws -> [String]

  /// Writes a batch in one transaction; rows of sessions no longer stored are skipped and
  /// counted in the result. Writing the same batch twice stores it once.
  @discardableResult
  func write(_ batch: WriteBatch) throws -> Int
  /// The inputs of a session with `afterTick < tick <= throughTick`, in tick then seq order.
  func inputs(sessionID: String, afterTick: Int64, throughTick: Int64) throws -> [LoggedInput]
  /// The newest snapshot taken at or before `tick`.
  func snapshot(sessionID: String, atOrBefore tick: Int64) throws -> Snapshot?

  /// Adds a score and returns its 1-based rank, or nil when it did not make the kept table.
  @discardableResult
  func addHighScore(_ score: HighScore) throws -> Int?
  /// The best `limit` scores by level, then score, then earliest date.
  func topHighScores(limit: Int) throws -> [HighScore]

  /// Saves a maze under `name`, replacing one of the same name, and returns it as stored;
  /// with an `owner`, only the owner's token replaces it and new names count per client.
  @discardableResult
  func saveMaze(name: String, cells: String, at time: Double, owner: MazeOwner?) throws
    -> SavedMaze
  /// The maze saved under `name`, if any.
  func maze(named name: String) throws -> SavedMaze?
  /// All saved mazes by name.
  func listMazes() throws -> [SavedMaze]
  /// Deletes the maze saved under `name` (with a `token`, only if it owns it); false when
  /// there was none.
  @discardableResult
  func deleteMaze(named name: String, token: String?) throws -> Bool

  /// The number of sessions and the size of the database.
  func statistics() throws -> StoreStatistics
}
