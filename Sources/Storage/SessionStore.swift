/// Durable sessions, their input logs and snapshots, session leases, high scores and saved
/// mazes: on one SQLite file (`SQLiteSessionStore`, one process) or on PostgreSQL
/// (`PostgresSessionStore`, shared by several processes). `SessionStores.open` picks one.
///
/// Every method may throw the database's fault (`SQLiteError`, `PostgresError`) or a
/// `StoreError` (a refused request). Times are unix seconds passed in by the caller; the store
/// never reads the clock for them.
public protocol SessionStore: Sendable {
  /// Stores a new session, held by the caller on `lease` terms when given, and evicts the
  /// stalest stopped sessions no process holds to stay under the limit.
  @discardableResult
  func createSession(_ session: StoredSession, lease: LeaseTerms?) throws -> CreatedSession
  /// The session with this id, if stored.
  func session(id: String) throws -> StoredSession?
  /// All sessions, or those with `status`, most recently updated first.
  func listSessions(status: SessionStatus?) throws -> [StoredSession]
  /// Deletes a session with its inputs and snapshots; false when there was none.
  @discardableResult
  func deleteSession(id: String) throws -> Bool
  /// Raises the session's seat-link generation by one (its owner replaced the drawing links);
  /// returns the new generation, or nil when there is no such session.
  func renewSeatLinks(sessionID: String) throws -> Int64?
  /// Deletes the sessions not updated since `cutoff` (unix seconds) and returns their ids.
  @discardableResult
  func deleteSessions(updatedBefore cutoff: Double) throws -> [String]

  /// Writes a batch in one transaction. Rows of sessions no longer stored are skipped; rows of
  /// a session whose lease is not the one the batch carries for it (another process took it
  /// over) are refused, and the session is named in `lostSessions`. Writing the same batch
  /// twice stores it once.
  @discardableResult
  func write(_ batch: WriteBatch) throws -> WriteResult
  /// The inputs of a session with `afterTick < tick <= throughTick`, in tick then seq order.
  func inputs(sessionID: String, afterTick: Int64, throughTick: Int64) throws -> [LoggedInput]
  /// At most `limit` inputs of a session after `position`, in tick then seq order; nil when
  /// `wait` is false and another read holds the reading connection (ask again later).
  func inputs(sessionID: String, after position: LogPosition, limit: Int, wait: Bool) throws
    -> [LoggedInput]?
  /// Where a session's log starts (`StoredSession.logStart`: its inputs at or before this tick
  /// were compacted; 0 for a whole log or no such session); nil when `wait` is false and
  /// another read holds the reading connection.
  func logStart(sessionID: String, wait: Bool) throws -> Int64?
  /// The tick of a session's last logged input, or nil when it has none.
  func lastInputTick(sessionID: String) throws -> Int64?
  /// The newest snapshot taken at or before `tick`.
  func snapshot(sessionID: String, atOrBefore tick: Int64) throws -> Snapshot?
  /// The same, or nil when `wait` is false and another read holds the reading connection.
  func snapshot(sessionID: String, atOrBefore tick: Int64, wait: Bool) throws -> Snapshot?

  /// Takes a session's lease on `terms` if no one holds it, it ran out, or it is the caller's
  /// already (then only its expiry moves); the epoch rises whenever the holder changes.
  func acquireLease(sessionID: String, _ terms: LeaseTerms) throws -> LeaseAcquisition
  /// Extends every lease `terms.owner` holds, in one statement, and returns them; a session
  /// the owner believes it holds and that is missing here has been lost to another process.
  func renewLeases(_ terms: LeaseTerms) throws -> [Lease]
  /// Refuses `claim` (`StoreError.clientQuota`) when its client's live sessions held by
  /// processes other than `terms.owner` (leases live on the database's clock), with those the
  /// claim says are held here, pass a bound: what an adopting process checks, as a create does.
  func checkClaim(_ claim: ClientClaim, clock: String, holder terms: LeaseTerms) throws
  /// Gives a lease up, if it is still the holder's; false when it was not.
  @discardableResult
  func releaseLease(_ lease: Lease) throws -> Bool
  /// Gives up every lease of `owner` (at shutdown, after the last writes); returns how many.
  @discardableResult
  func releaseLeases(owner: String) throws -> Int
  /// The lease someone holds on a session (possibly run out), or nil when no one does.
  func lease(sessionID: String) throws -> Lease?

  /// Adds a score and returns its 1-based rank, or nil when it did not make the kept table.
  @discardableResult
  func addHighScore(_ score: HighScore) throws -> Int?
  /// The best `limit` scores by level, then score, then earliest date.
  func topHighScores(limit: Int) throws -> [HighScore]

  /// Saves a maze under `name`, replacing one of the same name, and returns it as stored;
  /// with an `owner`, only the owner's token replaces it and new names count per client.
  @discardableResult
  func saveMaze(name: String, cells: String, at time: Double, owner: MazeOwner?) throws
    -> SavedMaze
  /// The maze saved under `name`, if any.
  func maze(named name: String) throws -> SavedMaze?
  /// All saved mazes by name.
  func listMazes() throws -> [SavedMaze]
  /// Deletes the maze saved under `name` (with a `token`, only if it owns it); false when
  /// there was none.
  @discardableResult
  func deleteMaze(named name: String, token: String?) throws -> Bool

  /// Makes a recipe book owned by `ownerToken` (the store keeps its hash); with a `client`, it
  /// is that client's own book, used by its requests that carry no token.
  @discardableResult
  func createRecipeBook(id: String, ownerToken: String, client: String?, at time: Double) throws
    -> RecipeBook
  /// The book `token` opens (owner, read-write or read-only link), or nil.
  func recipeBook(token: String) throws -> RecipeBook?
  /// The client's own book (write access), or nil before its first save.
  func clientRecipeBook(client: String) throws -> RecipeBook?
  /// Replaces the book's read-only and read-write link tokens (nil revokes one); the old ones
  /// stop working at once.
  func setRecipeBookLinks(bookID: String, readToken: String?, writeToken: String?) throws
  /// Adds recipes to a book in one transaction: all of them, or none when one is refused.
  @discardableResult
  func addRecipes(_ recipes: [NewRecipe], bookID: String, at time: Double) throws
    -> [StoredRecipe]
  /// The book's recipes that match `query`.
  func recipes(bookID: String, query: RecipeQuery) throws -> [StoredRecipe]
  /// The book's recipes that match `query`, as a list shows them (`ListedRecipe`).
  func listedRecipes(bookID: String, query: RecipeQuery) throws -> [ListedRecipe]
  /// One recipe of the book, or nil.
  func recipe(bookID: String, id: Int64) throws -> StoredRecipe?
  /// Replaces a recipe's tags; nil when the book has no such recipe.
  func setRecipeTags(bookID: String, id: Int64, tags: [String], at time: Double) throws
    -> StoredRecipe?
  /// Deletes a recipe of the book; false when there was none.
  @discardableResult
  func deleteRecipe(bookID: String, id: Int64) throws -> Bool

  /// The book's shopping list as stored (a JSON array, `[]` for none) with the IDs of the
  /// writes that built it; nil for no such book.
  func shoppingList(bookID: String) throws -> StoredShoppingList?
  /// Replaces the book's shopping list with `items`, by the write `id` (unique to this write;
  /// `StoredShoppingList.isValidWriteID`), if the list's writes are still `writes` (as read or
  /// written last): the stored writes become those and `id`, the last `maxWrites`. False when
  /// they are not (another process wrote the list) or there is no such book.
  func setShoppingList(bookID: String, items: String, write id: String, over writes: [String])
    throws -> Bool
  /// Tells `changed` the book's ID each time any process (this one included) stores a
  /// shopping list, from another thread, until the watch is cancelled; nil when no other
  /// process can write the store (SQLite). A break in the link loses what was stored
  /// meanwhile: a watcher still reads its lists now and then.
  func watchShoppingLists(_ changed: @escaping @Sendable (String) -> Void) -> StoreWatch?

  /// The number of sessions and the size of the database.
  func statistics() throws -> StoreStatistics
  /// Whether the database is still where it was opened (SQLite: the file at its path;
  /// PostgreSQL has no file of ours and is always `.same`).
  var fileCheck: DatabaseFileCheck { get }
  /// Makes what the store holds self-contained before the process exits (SQLite folds its WAL
  /// into the file; PostgreSQL's server keeps its own files).
  func checkpoint() throws
}
