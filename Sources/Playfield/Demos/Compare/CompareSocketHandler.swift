import JSON
import Server
import WebSocket

/// `/ws/compare/ID?token=T`: one viewer of a compare group, who sends `play`, `pause`,
/// `step {count}`, `seek {tick}` and `speed {value}`, and gets `hello`, `frames`, `status` and
/// `diverged` (docs/protocol.md, "Compare").
final class CompareSocketHandler: WebSocketHandler {
  let group: CompareGroup
  let wallClock: @Sendable () -> Double

  init(group: CompareGroup, wallClock: @escaping @Sendable () -> Double) {
    self.group = group
    self.wallClock = wallClock
  }

  func opened(_ socket: WebSocket) {
    group.join(socket)
  }

  func received(_ message: WebSocketMessage, on socket: WebSocket) {
    switch command(message) {
    case .success(let command): group.send(command)
    case .failure(let error): socket.send(.error(error))
    }
  }

  func closed(_ socket: WebSocket, code: WebSocketCloseCode?, reason: String) {
    group.leave(socket, now: wallClock())
  }

  func command(_ message: WebSocketMessage) -> Result<
    CompareMachine<WebSocket>.Command, ClientError
  > {
    guard case .text(let text) = message else {
      return .failure(ClientError("bad-message", "send JSON text messages, not binary"))
    }
    guard let parsed = try? JSONValue.parse(text, maxDepth: 8), case .object = parsed else {
      return .failure(ClientError("bad-json", "a message must be a JSON object with a type"))
    }
    switch parsed["type"]?.stringValue {
    case "play":
      return .success(.play)
    case "pause":
      return .success(.pause)
    case "step":
      // NB: at most the group's length; its steps run in slices charged to its owner.
      let count = parsed["count"].map { $0.intValue ?? 0 } ?? 1
      guard (1...Int(group.end)).contains(count) else {
        return .failure(
          ClientError(
            "bad-field", "count must be a whole number of ticks from 1 to \(group.end)",
            field: "count"))
      }
      return .success(.step(count))
    case "speed":
      let speeds = CompareMachine<WebSocket>.speeds
      guard let value = parsed["value"]?.doubleValue, speeds.contains(value) else {
        return .failure(
          ClientError("bad-field", "value must be a number from 0.25 to 8", field: "value"))
      }
      return .success(.speed(value))
    case "seek":
      guard let tick = parsed["tick"]?.intValue, tick >= 0 else {
        return .failure(
          ClientError("bad-field", "tick must be a whole number of ticks, 0 or more", field: "tick")
        )
      }
      guard tick <= group.end else {
        return .failure(
          ClientError(
            "bad-field", "tick \(tick) is past the group's end (\(group.end))", field: "tick"))
      }
      return .success(.seek(UInt64(tick)))
    case let other?:
      return .failure(
        ClientError(
          "unknown-type",
          "unknown message type \"\(other)\"; send play, pause, step, seek or speed",
          field: "type"))
    case nil:
      return .failure(
        ClientError("missing-type", "a message needs a \"type\" string", field: "type"))
    }
  }
}
