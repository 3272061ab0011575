/// A request the store refuses: bad values or a full table. Faults of the database itself are
/// `SQLiteError` or `PostgresError`.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A name failed validation; the text says why.
  case invalidName(String)
  /// A field's value is out of bounds.
  case invalidValue(field: String, reason: String)
  /// A session with this id exists already.
  case sessionExists(id: String)
  /// The store keeps as many sessions as it may, and none of the new one's owner (or, without
  /// an owner, none ownerless) can make room for it.
  case tooManySessions(limit: Int)
  /// The maze table is full.
  case tooManyMazes(limit: Int)
  /// The session's owner has as many sessions stored as one client may.
  case tooManySessionsForClient(limit: Int)
  /// The owners of the session's address have as many sessions stored as one address may.
  case tooManySessionsForAddress(limit: Int)
  /// The store is nearly full, and the owners of the session's address hold at least as many
  /// sessions as places are free: its last places go to addresses holding fewer.
  case storeReserved(held: Int, free: Int)
  /// This client owns as many mazes as it may.
  case tooManyMazesForClient(limit: Int)
  /// The clients of this address own as many mazes as they may.
  case tooManyMazesForAddress(limit: Int)
  /// The maze exists and the token given is not its owner's.
  case notMazeOwner(name: String)
  /// The client (or its address) already holds as many live sessions as `ClientClaim` allows,
  /// counted across every process sharing the store.
  case clientQuota(ClientClaim.Bound)
  /// The recipe book holds as many recipes as it may.
  case tooManyRecipes(limit: Int)
  /// The books the recipe book's maker made would hold more bytes of recipes than one client
  /// may (`StoreLimits.maxRecipeBytesPerClient`).
  case tooManyRecipeBytes(limit: Int)
  /// The token may read the recipe book but not do this.
  case recipeBookAccess(needed: String)

  public var description: String {
    switch self {
    case .invalidName(let reason):
      reason
    case .invalidValue(let field, let reason):
      "\(field) \(reason)"
    case .sessionExists(let id):
      "session \(id) exists already"
    case .tooManySessions(let limit):
      "the store is full: it keeps \(limit) sessions, and none of yours can make room"
    case .tooManySessionsForClient(let limit):
      "you have \(limit) stored sessions, the most one client may; delete one of yours first"
    case .tooManySessionsForAddress(let limit):
      "your address has \(limit) stored sessions, the most one address may; delete one first"
    case .storeReserved(let held, let free):
      "the store is nearly full (\(free) places free) and your address has \(held) stored "
        + "sessions: its last places go to addresses holding fewer; delete one first"
    case .tooManyMazes(let limit):
      "too many saved mazes (the limit is \(limit)); delete one first"
    case .tooManyMazesForClient(let limit):
      "you have saved \(limit) mazes, the most one client may; delete one of yours first"
    case .tooManyMazesForAddress(let limit):
      "your address has saved \(limit) mazes, the most one address may; delete one first"
    case .notMazeOwner(let name):
      "the maze \(name) belongs to someone else: send its token to change or delete it"
    case .clientQuota(let bound):
      "the \(bound.rawValue) quota of live sessions is reached across the processes sharing the store"
    case .tooManyRecipes(let limit):
      "the recipe book is full (\(limit) recipes); delete some first"
    case .tooManyRecipeBytes(let limit):
      "the recipe books of this book's maker would hold more than \(limit) bytes of recipes, "
        + "the most one client may; delete some first"
    case .recipeBookAccess(let needed):
      "this link cannot do that: it needs \(needed)"
    }
  }
}
