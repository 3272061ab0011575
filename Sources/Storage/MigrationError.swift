/// Why the recorded migrations and the code's list do not fit together.
public enum MigrationError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The list given to `migrate` names one migration twice.
  case duplicateName(String)
  /// The database has a migration this code does not know: a newer Playfield wrote it.
  case unknownMigration(name: String, position: Int)
  /// At `position` the database recorded `recorded` but the code lists `expected`.
  case reordered(position: Int, recorded: String, expected: String)
  /// The SQL of an applied migration was edited after it ran.
  case changed(name: String)

  public var description: String {
    switch self {
    case .duplicateName(let name):
      "migration \"\(name)\" is listed twice"
    case .unknownMigration(let name, let position):
      "database has migration #\(position) \"\(name)\" that this Playfield does not know; "
        + "it was written by a newer version"
    case .reordered(let position, let recorded, let expected):
      "migration #\(position) is \"\(recorded)\" in the database but \"\(expected)\" in the code; "
        + "migrations may only be appended"
    case .changed(let name):
      "migration \"\(name)\" was edited after it was applied; add a new migration instead"
    }
  }
}
