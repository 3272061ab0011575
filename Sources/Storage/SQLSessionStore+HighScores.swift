extension SQLSessionStore {
  @discardableResult
  public func addHighScore(_ score: HighScore) throws -> Int? {
    let name = try NameValidator.validate(score.name)
    guard score.score >= 0 else {
      throw StoreError.invalidValue(field: "score", reason: "must not be negative")
    }
    guard score.level >= 0 else {
      throw StoreError.invalidValue(field: "level", reason: "must not be negative")
    }
    let kept = Int64(max(1, limits.maxHighScores))
    return try withWriter { database in
      try database.transaction {
        try database.serialize(.highScores)
        let id = try database.query(
          """
          INSERT INTO high_scores (name, score, level, created_at, session_id)
          VALUES (?, ?, ?, ?, ?) RETURNING id
          """,
          [
            .text(name), .integer(score.score), .integer(score.level), .real(score.createdAt),
            score.session.map { .text($0) } ?? .null,
          ]
        ) { $0.int64(0) }.first
        try database.execute(
          """
          DELETE FROM high_scores WHERE id NOT IN
            (SELECT id FROM high_scores ORDER BY \(Self.highScoreOrder) LIMIT ?)
          """, [.integer(kept)])
        let ranked = try database.query(
          "SELECT id FROM high_scores ORDER BY \(Self.highScoreOrder)", []
        ) { $0.int64(0) }
        return ranked.firstIndex { $0 == id }.map { $0 + 1 }
      }
    }
  }

  public func topHighScores(limit: Int) throws -> [HighScore] {
    let count = Int64(min(max(0, limit), limits.maxHighScores))
    return try withReader { database in
      try database.query(
        """
        SELECT name, score, level, created_at, session_id FROM high_scores
        ORDER BY \(Self.highScoreOrder) LIMIT ?
        """,
        [.integer(count)]
      ) {
        HighScore(
          name: $0.string(0), score: $0.int64(1), level: $0.int64(2), createdAt: $0.double(3),
          session: $0.optionalString(4))
      }
    }
  }

  /// Best first: higher level, then higher score, then the earlier date (then insertion order).
  private static var highScoreOrder: String { "level DESC, score DESC, created_at, id" }
}
