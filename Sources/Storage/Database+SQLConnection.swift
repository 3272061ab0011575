extension Database: SQLConnection {
  var dialect: SQLDialect { .sqlite }

  func executeBatch(_ statements: [BatchStatement]) throws(SQLiteError) {
    for statement in statements {
      try execute(statement.sql, statement.values)
    }
  }
}

extension Row: SQLRow {}
