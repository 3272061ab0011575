extension StoredSession {
  /// The columns `init(row:)` reads, in order.
  static let columns =
    "id, kind, config, seed, status, created_at, updated_at, tick, token_hash, seat_generation, "
    + "clock, log_start, owner_client"

  /// The session in a row of `columns`.
  init(row: some SQLRow) {
    self.init(
      id: row.string(0), kind: row.string(1), config: row.string(2),
      seed: UInt64(bitPattern: row.int64(3)),
      // NB: a status this version does not know (written by a newer one) reads as paused, so
      // the session is kept and listed but not resumed.
      status: SessionStatus(rawValue: row.string(4)) ?? .paused,
      createdAt: row.double(5), updatedAt: row.double(6), tick: row.int64(7),
      tokenHash: row.string(8), seatGeneration: row.int64(9), clock: row.string(10),
      logStart: row.int64(11), owner: row.optionalString(12))
  }
}
