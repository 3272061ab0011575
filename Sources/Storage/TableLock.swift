/// A rule over many rows that concurrent writers must take turns to keep: a table's size
/// limit, a per-client quota, a rank. On PostgreSQL each is an advisory lock with its own key.
enum TableLock: Int64, Sendable {
  case sessions = 1
  case highScores = 2
  case mazes = 3
  case migrations = 4
  case recipes = 5

  /// The advisory lock key: "Playfld" in the top bytes, so other users of the database do not
  /// collide with ours, then the case.
  var key: Int64 {
    0x506C_6179_666C_6400 | rawValue
  }
}
