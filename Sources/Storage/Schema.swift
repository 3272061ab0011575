/// Playfield's database schema as its ordered list of migrations.
///
/// The rule: append a new migration for every change; never edit, rename, reorder or remove one
/// that has shipped (the checksum recorded with each applied migration enforces it).
public enum Schema {
  /// Every migration, oldest first.
  public static let migrations: [Migration] = [
    Migration(
      name: "create-sessions",
      sql: """
        CREATE TABLE sessions (
          id TEXT PRIMARY KEY NOT NULL,
          kind TEXT NOT NULL,
          config TEXT NOT NULL,
          seed INTEGER NOT NULL,
          status TEXT NOT NULL,
          created_at REAL NOT NULL,
          updated_at REAL NOT NULL,
          tick INTEGER NOT NULL DEFAULT 0,
          token_hash TEXT NOT NULL
        );
        CREATE INDEX sessions_by_updated_at ON sessions (updated_at);
        CREATE INDEX sessions_by_status ON sessions (status, updated_at);
        """),
    Migration(
      name: "create-inputs",
      sql: """
        CREATE TABLE inputs (
          session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
          tick INTEGER NOT NULL,
          seq INTEGER NOT NULL,
          input TEXT NOT NULL,
          PRIMARY KEY (session_id, tick, seq)
        ) WITHOUT ROWID;
        """),
    Migration(
      name: "create-snapshots",
      sql: """
        CREATE TABLE snapshots (
          session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
          tick INTEGER NOT NULL,
          state BLOB NOT NULL,
          PRIMARY KEY (session_id, tick)
        );
        """),
    Migration(
      name: "create-high-scores",
      sql: """
        CREATE TABLE high_scores (
          id INTEGER PRIMARY KEY,
          name TEXT NOT NULL,
          score INTEGER NOT NULL,
          level INTEGER NOT NULL,
          created_at REAL NOT NULL
        );
        CREATE INDEX high_scores_by_rank ON high_scores (level DESC, score DESC, created_at, id);
        """),
    Migration(
      name: "create-mazes",
      sql: """
        CREATE TABLE mazes (
          id INTEGER PRIMARY KEY,
          name TEXT NOT NULL UNIQUE,
          cells TEXT NOT NULL,
          created_at REAL NOT NULL,
          updated_at REAL NOT NULL
        );
        """),
    // NB: mazes saved before owners existed keep NULL and can be read, not changed.
    Migration(
      name: "maze-owners",
      sql: """
        ALTER TABLE mazes ADD COLUMN owner_hash TEXT;
        ALTER TABLE mazes ADD COLUMN owner_client TEXT;
        CREATE INDEX mazes_by_client ON mazes (owner_client);
        """),
  ]
}
