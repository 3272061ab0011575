extension SQLiteSessionStore {
  @discardableResult
  public func saveMaze(name: String, cells: String, at time: Double) throws -> SavedMaze {
    let name = try NameValidator.validate(name)
    guard !cells.isEmpty, cells.utf8.count <= limits.maxMazeBytes else {
      throw StoreError.invalidValue(
        field: "cells", reason: "must have 1 to \(limits.maxMazeBytes) bytes")
    }
    let limit = limits.maxMazes
    return try withWriter { database in
      try database.transaction {
        let existing = try database.query("SELECT 1 FROM mazes WHERE name = ?", [.text(name)]) {
          _ in true
        }
        if existing.isEmpty {
          let count = try database.query("SELECT COUNT(*) FROM mazes") { Int($0.int64(0)) }
          guard (count.first ?? 0) < limit else { throw StoreError.tooManyMazes(limit: limit) }
        }
        try database.execute(
          """
          INSERT INTO mazes (name, cells, created_at, updated_at) VALUES (?1, ?2, ?3, ?3)
          ON CONFLICT (name) DO UPDATE SET cells = excluded.cells, updated_at = excluded.updated_at
          """, [.text(name), .text(cells), .real(time)])
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
      try database.query("SELECT \(Self.mazeColumns) FROM mazes ORDER BY name", row: Self.savedMaze)
    }
  }

  @discardableResult
  public func deleteMaze(named name: String) throws -> Bool {
    let name = try NameValidator.validate(name)
    return try withWriter { database in
      try database.execute("DELETE FROM mazes WHERE name = ?", [.text(name)]) > 0
    }
  }

  private static let mazeColumns = "name, cells, created_at, updated_at"

  private static func savedMaze(_ row: Row) -> SavedMaze {
    SavedMaze(
      name: row.string(0), cells: row.string(1), createdAt: row.double(2),
      updatedAt: row.double(3))
  }
}
