import JSON
import Server
import WebSocket

/// What a viewer of a replay or a compare group sends: a JSON object with a `type`, and the
/// transport's fields (`speed`'s `value`, `seek`'s `tick`), checked alike for both sockets.
enum PlaybackMessage {
  /// Ticks per game-loop tick a viewer may ask for.
  static var speeds: ClosedRange<Double> { ReplayMachine.speeds }

  /// The message as a JSON object with its type, or why not.
  static func parse(_ message: WebSocketMessage) -> Result<(String, JSONValue), ClientError> {
    guard case .text(let text) = message else {
      return .failure(ClientError("bad-message", "send JSON text messages, not binary"))
    }
    guard let parsed = try? JSONValue.parse(text, maxDepth: 8), case .object = parsed else {
      return .failure(ClientError("bad-json", "a message must be a JSON object with a type"))
    }
    guard let type = parsed["type"]?.stringValue else {
      return .failure(
        ClientError("missing-type", "a message needs a \"type\" string", field: "type"))
    }
    return .success((type, parsed))
  }

  /// `speed`'s `value`: 0.25 to 8 ticks per game-loop tick.
  static func speed(in parsed: JSONValue) -> Result<Double, ClientError> {
    guard let value = parsed["value"]?.doubleValue, speeds.contains(value) else {
      return .failure(
        ClientError("bad-field", "value must be a number from 0.25 to 8", field: "value"))
    }
    return .success(value)
  }

  /// `seek`'s `tick`: 0 or more.
  static func tick(in parsed: JSONValue) -> Result<UInt64, ClientError> {
    guard let tick = parsed["tick"]?.intValue, tick >= 0 else {
      return .failure(
        ClientError("bad-field", "tick must be a whole number of ticks, 0 or more", field: "tick"))
    }
    return .success(UInt64(tick))
  }

  /// A type the socket does not take; `known` lists the ones it does ("play, pause...").
  static func unknown(_ type: String, known: String) -> ClientError {
    ClientError(
      "unknown-type", "unknown message type \"\(type)\"; send \(known)", field: "type")
  }
}
