import HTTP
import JSON
import Simulation
import Storage
import Synchronization

/// `/api/highscores`: the table of `model`'s games (Holes), top 10 by level then score. A score
/// is entered by the session's controller after a game over; the score and level come from the
/// session itself, and only games the model lets in count (`entersHighScores(config:)`).
final class HighScoreAPI: Sendable {
  let model: any Simulation.Type
  let registry: SessionRegistry
  let store: (any SessionStore)?
  /// Games already entered, by session and tick, so each counts once.
  private let entered = Mutex<Set<String>>([])

  init(model: any Simulation.Type, registry: SessionRegistry, store: (any SessionStore)?) {
    self.model = model
    self.registry = registry
    self.store = store
  }

  /// GET lists the table, POST enters a game.
  var routes: [Route] {
    [
      Route([.get], "/api/highscores", [.api, .guardsState, .store]) { _ in
        .response(self.list())
      },
      Route([.post], "/api/highscores", [.api, .guardsState, .store]) { call in
        .response(self.enter(call.request))
      },
    ]
  }

  func list() -> Response {
    answer { store in .json(.object(["scores": .array(try table(store))])) }
  }

  func enter(_ request: Request) -> Response {
    answer { store in try enter(request, store: store) }
  }

  /// `make`'s answer with the store, or the error it threw; 503 without a database.
  private func answer(_ make: (any SessionStore) throws -> Response) -> Response {
    APIError.answer(with: store, make)
  }

  private func table(_ store: any SessionStore) throws -> [JSONValue] {
    try store.topHighScores().enumerated().map { index, score in
      .object([
        "rank": .number(Double(index + 1)), "name": .string(score.name),
        "score": .number(Double(score.score)), "level": .number(Double(score.level)),
        "date": .number(score.createdAt.rounded()),
        "session": score.session.map { .string($0) } ?? .null,
      ])
    }
  }

  private func enter(_ request: Request, store: any SessionStore) throws -> Response {
    let body = try JSONBody(request)
    let sessionID = try body.string("session")
    let token = try body.string("token")
    let name = try body.string("name")
    let session: LiveSession
    do {
      session = try registry.lookup(sessionID)
    } catch {
      var absent = error
      absent.field = "session"
      throw absent
    }
    guard TokenHash.matches(token: token, storedHash: session.tokenHash) else {
      throw APIError(.forbidden, "the token does not control this session", field: "token")
    }
    let summary = session.summary
    guard session.type == model, let game = summary.lastGame else {
      throw APIError(.conflict, "this session has no finished game to enter", field: "session")
    }
    guard session.type.entersHighScores(config: summary.config) else {
      throw APIError(
        .conflict,
        "only games with the default settings enter the high scores; this one had its own",
        field: "session")
    }
    let key = "\(sessionID)@\(game.tick)"
    guard entered.withLock({ $0.insert(key).inserted }) else {
      throw APIError(.conflict, "this game is already in the table", field: "session")
    }
    do {
      let rank = try store.addHighScore(
        HighScore(
          name: name, score: Int64(game.score), level: Int64(game.level),
          createdAt: registry.wallClock(), session: sessionID))
      return .json(
        .object([
          "rank": rank.map { .number(Double($0)) } ?? .null, "score": .number(Double(game.score)),
          "level": .number(Double(game.level)), "scores": .array(try table(store)),
        ]), status: .created)
    } catch {
      _ = entered.withLock { $0.remove(key) }
      throw error
    }
  }
}
