extension SessionStore {
  /// Stores a new session that no process holds yet; returns the ids of sessions evicted.
  @discardableResult
  public func createSession(_ session: StoredSession) throws -> [String] {
    try createSession(session, lease: nil).evicted
  }

  /// All sessions, most recently updated first.
  public func listSessions() throws -> [StoredSession] {
    try listSessions(status: nil)
  }

  /// Sets a session's status, tick and updated time now (not through the write-behind queue),
  /// under no lease: refused, as the result says, while a process holds the session.
  @discardableResult
  public func updateSession(_ progress: SessionProgress) throws -> WriteResult {
    try write(WriteBatch(progress: [progress]))
  }

  /// Appends inputs now (not through the write-behind queue), under no lease.
  @discardableResult
  public func appendInputs(_ inputs: [LoggedInput]) throws -> WriteResult {
    try write(WriteBatch(inputs: inputs))
  }

  /// Saves a snapshot now (not through the write-behind queue), under no lease; old ones
  /// beyond the limit go.
  @discardableResult
  public func saveSnapshot(_ snapshot: Snapshot) throws -> WriteResult {
    try write(WriteBatch(snapshots: [snapshot]))
  }

  /// Every input of a session, from its first tick (for replay).
  public func inputs(sessionID: String) throws -> [LoggedInput] {
    try inputs(sessionID: sessionID, afterTick: .min, throughTick: .max)
  }

  /// The inputs of a session after `tick` (for resuming from a snapshot at `tick`).
  public func inputs(sessionID: String, afterTick tick: Int64) throws -> [LoggedInput] {
    try inputs(sessionID: sessionID, afterTick: tick, throughTick: .max)
  }

  /// The newest snapshot of a session.
  public func latestSnapshot(sessionID: String) throws -> Snapshot? {
    try snapshot(sessionID: sessionID, atOrBefore: .max)
  }

  /// What it takes to rebuild a session at `tick` (default: its latest state).
  ///
  /// Start from the snapshot (or, without one, from the seed and config at tick 0) and apply the
  /// returned inputs; they are those after the snapshot's tick and up to `tick`.
  public func resumePoint(sessionID: String, atOrBefore tick: Int64 = .max) throws -> ResumePoint {
    let snapshot = try snapshot(sessionID: sessionID, atOrBefore: tick)
    let inputs = try inputs(
      sessionID: sessionID, afterTick: snapshot?.tick ?? .min, throughTick: tick)
    return ResumePoint(snapshot: snapshot, inputs: inputs)
  }

  /// Saves a maze with no owner (it can then be replaced or deleted only without a token).
  @discardableResult
  public func saveMaze(name: String, cells: String, at time: Double) throws -> SavedMaze {
    try saveMaze(name: name, cells: cells, at: time, owner: nil)
  }

  /// Deletes a maze whatever its owner.
  @discardableResult
  public func deleteMaze(named name: String) throws -> Bool {
    try deleteMaze(named: name, token: nil)
  }

  /// The ten best high scores.
  public func topHighScores() throws -> [HighScore] {
    try topHighScores(limit: 10)
  }
}
