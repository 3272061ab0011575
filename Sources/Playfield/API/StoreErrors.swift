import HTTP
import Storage

extension APIError {
  /// The API answer for a storage failure: 400 for a bad value, 409 for a conflict, 503 when
  /// the database cannot do the work (locked, read-only, full, corrupt), always saying which.
  init(storage error: any Error) {
    switch error {
    case let store as StoreError:
      switch store {
      case .invalidName: self.init(.badRequest, store.description, field: "name")
      case .invalidValue(let field, _): self.init(.badRequest, store.description, field: field)
      case .sessionExists: self.init(.conflict, store.description)
      case .tooManySessions, .tooManyMazes: self.init(.conflict, store.description)
      case .tooManyMazesForClient, .tooManyMazesForAddress, .tooManySessionsForClient,
        .tooManySessionsForAddress, .storeReserved:
        self.init(.tooManyRequests, store.description)
      case .notMazeOwner, .recipeBookAccess: self.init(.forbidden, store.description)
      case .tooManyRecipes, .tooManyRecipeBytes, .clientQuota:
        self.init(.tooManyRequests, store.description)
      }
    case let sqlite as SQLiteError:
      self.init(.serviceUnavailable, "the database cannot do this now: \(sqlite.message)")
    case let postgres as PostgresError:
      self.init(.serviceUnavailable, "the database cannot do this now: \(Self.told(postgres))")
    default:
      self.init(.serviceUnavailable, "the database failed: \(Self.told(error))")
    }
  }

  /// What a client may be told of a store failure: the kind of fault. PostgreSQL's and libpq's
  /// own text names the database's host, port, user and name (`connection to server at
  /// "10.0.0.7", port 5432 failed`), which are the operator's to know, not any client's.
  static func told(_ error: any Error) -> String {
    guard let postgres = error as? PostgresError else { return String(describing: error) }
    switch postgres.kind {
    case .connection: return "the database cannot be reached"
    case .conflict: return "a transaction conflict; try again"
    case .readOnly: return "the database is read-only"
    case .full: return "the database is out of disk, memory or connections"
    case .constraint, .invalidData, .misuse, .other:
      return "the database refused the statement (SQLSTATE \(postgres.sqlState))"
    }
  }

  static let noDatabase = APIError(
    .serviceUnavailable, "this needs the database, which could not be opened (see the server log)")
}

extension APIError {
  /// What `make` answers with `store`, or the response for the error it threw; 503 without a
  /// database.
  static func answer(
    with store: (any SessionStore)?, _ make: (any SessionStore) throws -> Response
  ) -> Response {
    guard let store else { return noDatabase.response }
    do {
      return try make(store)
    } catch let error as APIError {
      return error.response
    } catch {
      return APIError(storage: error).response
    }
  }
}
