import CSQLite

/// A prepared statement, owned by one `Database` and used only under its owner's rules.
final class Statement {
  let handle: OpaquePointer

  init(sql: String, connection: OpaquePointer) throws(SQLiteError) {
    var handle: OpaquePointer?
    let flags = UInt32(SQLITE_PREPARE_PERSISTENT)
    try check(sqlite3_prepare_v3(connection, sql, -1, flags, &handle, nil), connection)
    guard let handle else {
      throw SQLiteError(code: SQLITE_MISUSE, sqliteMessage: "no SQL statement in \"\(sql)\"")
    }
    self.handle = handle
  }

  deinit {
    sqlite3_finalize(handle)
  }

  /// Binds `values` to parameters 1...n; the count must match the statement's.
  func bind(_ values: [SQLValue]) throws(SQLiteError) {
    let expected = Int(sqlite3_bind_parameter_count(handle))
    guard values.count == expected else {
      throw SQLiteError(
        code: SQLITE_MISUSE,
        sqliteMessage: "statement takes \(expected) parameters, \(values.count) given")
    }
    for (offset, value) in values.enumerated() {
      try check(bind(value, at: Int32(offset + 1)), sqlite3_db_handle(handle))
    }
  }

  /// Steps once: true when a row is ready, false when the statement is done.
  func step() throws(SQLiteError) -> Bool {
    let code = sqlite3_step(handle)
    if code == SQLITE_ROW { return true }
    if code == SQLITE_DONE { return false }
    try check(code, sqlite3_db_handle(handle))
    return false
  }

  /// Makes the statement ready to run again and ends its read of the database.
  func reset() {
    // NB: sqlite3_reset repeats the last step's error, which `step` has already thrown.
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
  }

  private func bind(_ value: SQLValue, at index: Int32) -> Int32 {
    switch value {
    case .integer(let number):
      return sqlite3_bind_int64(handle, index, number)
    case .real(let number):
      return sqlite3_bind_double(handle, index, number)
    case .text(let text):
      var text = text
      return text.withUTF8 { bytes in
        // NB: a nil pointer would bind NULL, so the empty string gets a real (empty) buffer.
        bytes.isEmpty
          ? sqlite3_bind_text(handle, index, "", 0, sqliteTransient)
          : sqlite3_bind_text(handle, index, bytes.baseAddress, Int32(bytes.count), sqliteTransient)
      }
    case .blob(let bytes):
      guard !bytes.isEmpty else { return sqlite3_bind_zeroblob(handle, index, 0) }
      return bytes.withUnsafeBytes { raw in
        sqlite3_bind_blob(handle, index, raw.baseAddress, Int32(raw.count), sqliteTransient)
      }
    case .null:
      return sqlite3_bind_null(handle, index)
    }
  }
}

/// SQLite's SQLITE_TRANSIENT (the C macro is a cast Swift cannot import): copy the bound bytes.
private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
