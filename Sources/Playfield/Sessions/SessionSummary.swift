import JSON
import Server

/// What listings show about a session, published by the game loop after each tick.
struct SessionSummary: Sendable {
  var id: String
  var kind: String
  var running: Bool
  /// Paused because nobody watched for a while; the next spectator resumes it.
  var paused = false
  var tick: UInt64
  var spectators: Int
  var controllers: Int
  /// Seconds since 1970.
  var createdAt: Double
  var updatedAt: Double
  /// Seconds since 1970 when the last client left; nil while someone is connected.
  var idleSince: Double?
  var config: JSONValue
  /// How the last game ended (models with games), for the high-score table.
  var lastGame: GameResult?
  /// What advances the session.
  var clock = SessionClock.realtime

  /// The session's public URLs (the control URL needs the token, so it is added at creation).
  var urls: [String: JSONValue] {
    [
      "watch": .string("/demos/\(kind)?session=\(id)"),
      "embed": .string("/embed/\(kind)?session=\(id)"),
      "socket": .string("/ws/sessions/\(id)"),
      "replay": .string("/sessions/\(id)/replay"),
      "api": .string("/api/sessions/\(id)"),
    ]
  }

  /// Takes in what the session machine published after a tick.
  mutating func update(_ progress: SessionMachine<Server.WebSocket>.Progress) {
    running = progress.phase == .running
    paused = progress.phase == .pausedForIdle
    tick = progress.tick
    spectators = progress.spectators
    controllers = progress.controllers
    idleSince = progress.idleSince
    updatedAt = progress.now
  }

  /// The JSON shown by `GET /api/sessions/ID`.
  func json(now: Double) -> JSONValue {
    .object([
      "id": .string(id),
      "kind": .string(kind),
      "title": .string(Demo.title(of: kind)),
      "status": .string(running ? "running" : "stopped"),
      "clock": .string(clock.rawValue),
      "running": .bool(running),
      "paused": .bool(paused),
      "idle": .bool(idleSince != nil),
      "idleSeconds": idleSince.map { .number(max(0, (now - $0).rounded())) } ?? .null,
      "tick": .number(Double(tick)),
      "seconds": .number((Double(tick) / 60 * 100).rounded() / 100),
      "spectators": .number(Double(spectators)),
      "controllers": .number(Double(controllers)),
      "createdAt": .number(createdAt.rounded()),
      "updatedAt": .number(updatedAt.rounded()),
      "ageSeconds": .number(max(0, (now - createdAt).rounded())),
      "config": config,
      "urls": .object(urls),
      "lastGame": lastGame.map {
        .object([
          "tick": .number(Double($0.tick)), "score": .number(Double($0.score)),
          "level": .number(Double($0.level)),
        ])
      } ?? .null,
    ])
  }
}

/// The end of one game: when, and its score and level.
struct GameResult: Sendable, Equatable {
  var tick: UInt64
  var score: Int
  var level: Int
}
