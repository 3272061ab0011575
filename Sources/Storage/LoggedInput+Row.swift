extension LoggedInput {
  /// The input in a row of `session_id, tick, seq, input`.
  init(row: some SQLRow) {
    self.init(
      sessionID: row.string(0), tick: row.int64(1), seq: row.int64(2), input: row.string(3))
  }
}
