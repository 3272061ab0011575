extension SQLSessionStore {
  /// Saves `cells` under `name`. With an `owner`, a new name is theirs (within
  /// `maxMazesPerClient`, and its address's clients within `maxMazesPerAddress`) and an
  /// existing one may be replaced only with its token.
  @discardableResult
  public func saveMaze(name: String, cells: String, at time: Double, owner: MazeOwner?)
    throws -> SavedMaze
  {
    let name = try NameValidator.validate(name)
    guard !cells.isEmpty, cells.utf8.count <= limits.maxMazeBytes else {
      throw StoreError.invalidValue(
        field: "cells", reason: "must have 1 to \(limits.maxMazeBytes) bytes")
    }
    let limit = limits.maxMazes
    return try withWriter { database in
      try database.transaction {
        try database.serialize(.mazes)
        let existing = try database.query(
          "SELECT owner_hash FROM mazes WHERE name = ?", [.text(name)]
        ) { $0.optionalString(0) }
        if let ownerHash = existing.first {
          if let owner {
            try Self.checkOwner(owner.token, hash: ownerHash, name: name)
          }
        } else {
          let count = try database.count("SELECT COUNT(*) FROM mazes", [])
          guard count < limit else { throw StoreError.tooManyMazes(limit: limit) }
          if let owner {
            let perClient = limits.maxMazesPerClient
            let mine = try database.count(
              "SELECT COUNT(*) FROM mazes WHERE owner_client = ?", [.text(owner.client)])
            guard mine < perClient else {
              throw StoreError.tooManyMazesForClient(limit: perClient)
            }
            // A client is `ADDRESS` or `ADDRESS FAMILY`: the address's clients are both shapes.
            let perAddress = max(perClient, limits.maxMazesPerAddress)
            let address = try database.count(
              """
              SELECT COUNT(*) FROM mazes
              WHERE owner_client = ?1 OR substr(owner_client, 1, length(?1) + 1) = ?1 || ' '
              """, [.text(owner.address)])
            guard address < perAddress else {
              throw StoreError.tooManyMazesForAddress(limit: perAddress)
            }
          }
        }
        try database.execute(
          """
          INSERT INTO mazes (name, cells, created_at, updated_at, owner_hash, owner_client)
          VALUES (?1, ?2, ?3, ?3, ?4, ?5)
          ON CONFLICT (name) DO UPDATE SET cells = excluded.cells, updated_at = excluded.updated_at
          """,
          [
            .text(name), .text(cells), .real(time),
            owner.map { .text(TokenHash.hash(token: $0.token)) } ?? .null,
            owner.map { .text($0.client) } ?? .null,
          ])
        let saved = try database.query(
          "SELECT \(Self.mazeColumns) FROM mazes WHERE name = ?", [.text(name)], row: Self.savedMaze
        )
        return saved[0]
      }
    }
  }

  public func maze(named name: String) throws -> SavedMaze? {
    let name = try NameValidator.validate(name)
    return try withReader { database in
      try database.query(
        "SELECT \(Self.mazeColumns) FROM mazes WHERE name = ?", [.text(name)], row: Self.savedMaze
      ).first
    }
  }

  public func listMazes() throws -> [SavedMaze] {
    try withReader { database in
      try database.query(
        "SELECT \(Self.mazeColumns) FROM mazes ORDER BY name", [], row: Self.savedMaze)
    }
  }

  /// Deletes the maze; with a `token`, only if it is the owner's. False when there is none.
  @discardableResult
  public func deleteMaze(named name: String, token: String?) throws -> Bool {
    let name = try NameValidator.validate(name)
    return try withWriter { database in
      try database.transaction {
        let existing = try database.query(
          "SELECT owner_hash FROM mazes WHERE name = ?", [.text(name)]
        ) { row -> String? in row.isNull(0) ? nil : row.string(0) }
        guard let ownerHash = existing.first else { return false }
        if let token { try Self.checkOwner(token, hash: ownerHash, name: name) }
        return try database.execute("DELETE FROM mazes WHERE name = ?", [.text(name)]) > 0
      }
    }
  }

  /// Throws unless `token` hashes to the stored owner hash; an unowned maze has no owner.
  private static func checkOwner(_ token: String, hash: String?, name: String) throws {
    guard let hash, TokenHash.matches(token: token, storedHash: hash) else {
      throw StoreError.notMazeOwner(name: name)
    }
  }

  private static var mazeColumns: String { "name, cells, created_at, updated_at" }

  private static func savedMaze(_ row: Connection.Row) -> SavedMaze {
    SavedMaze(
      name: row.string(0), cells: row.string(1), createdAt: row.double(2),
      updatedAt: row.double(3))
  }
}
