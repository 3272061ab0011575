import JSON
import Server
import WebSocket

/// `/ws/compare/ID?token=T`: one viewer of a compare group, who sends `play`, `pause`,
/// `step {count}`, `seek {tick}`, `speed {value}`, `loop {from, to}`, `offset {pane, value}` and
/// `ambient {playing}`, and gets `hello`, `frames`, `status`, `diverged` and `ambient`
/// (docs/protocol.md, "Compare").
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
    switch command(message, from: socket) {
    case .success(let command): group.send(command)
    case .failure(let error): socket.send(.error(error))
    }
  }

  func closed(_ socket: WebSocket, code: WebSocketCloseCode?, reason: String) {
    group.leave(socket, now: wallClock())
  }

  func command(_ message: WebSocketMessage, from socket: WebSocket) -> Result<
    CompareMachine<WebSocket>.Command, ClientError
  > {
    PlaybackMessage.parse(message).flatMap { type, parsed in
      switch type {
      case "play": .success(.play)
      case "pause": .success(.pause)
      case "step": stepCount(in: parsed).map { .step($0) }
      case "speed": PlaybackMessage.speed(in: parsed).map { .speed($0) }
      case "seek":
        PlaybackMessage.tick(in: parsed).flatMap { tick in
          tick <= group.end
            ? .success(.seek(tick))
            : .failure(
              ClientError(
                "bad-field", "tick \(tick) is past the group's end (\(group.end))", field: "tick"))
        }
      case "loop": loop(in: parsed).map { .loop($0) }
      case "offset": offset(in: parsed)
      case "ambient":
        parsed["playing"]?.boolValue.map { .success(.ambient(socket, playing: $0)) }
          ?? .failure(
            ClientError(
              "bad-field", "playing must be true or false (the ambient pane, for this viewer)",
              field: "playing"))
      default:
        .failure(
          PlaybackMessage.unknown(
            type, known: "play, pause, step, seek, speed, loop, offset or ambient"))
      }
    }
  }

  /// `loop`'s `from` and `to` (0 <= from < to <= end), or neither to clear the loop.
  private func loop(in parsed: JSONValue) -> Result<ClosedRange<UInt64>?, ClientError> {
    let from = parsed["from"]
    let to = parsed["to"]
    if from == nil && to == nil { return .success(nil) }
    let end = Int(group.end)
    let refusal = { (field: String) in
      ClientError(
        "bad-field", "loop from must be below to, both 0 to \(end)", field: field)
    }
    guard let first = from?.intValue, (0..<end).contains(first) else {
      return .failure(refusal("from"))
    }
    guard let last = to?.intValue, first < last, last <= end else {
      return .failure(refusal("to"))
    }
    return .success(UInt64(first)...UInt64(last))
  }

  /// `offset`'s `pane` (an index, 0 to panes - 1) and `value` (-end to end, as when the group
  /// was made).
  private func offset(in parsed: JSONValue) -> Result<
    CompareMachine<WebSocket>.Command, ClientError
  > {
    let last = group.paneCount - 1
    guard let pane = parsed["pane"]?.intValue, (0...last).contains(pane) else {
      return .failure(
        ClientError("bad-field", "pane must be a pane's index from 0 to \(last)", field: "pane"))
    }
    let end = Int(group.end)
    guard let value = parsed["value"]?.intValue, (-end...end).contains(value) else {
      return .failure(
        ClientError(
          "bad-field", "pane \(pane + 1): offset must be an integer from -\(end) to \(end)",
          field: "value"))
    }
    return .success(.offset(pane: pane, value: value))
  }

  /// `step`'s `count`: 1 (the default) to the group's length; its steps run in slices charged
  /// to the group's owner.
  private func stepCount(in parsed: JSONValue) -> Result<Int, ClientError> {
    let count = parsed["count"].map { $0.intValue ?? 0 } ?? 1
    guard (1...Int(group.end)).contains(count) else {
      return .failure(
        ClientError(
          "bad-field", "count must be a whole number of ticks from 1 to \(group.end)",
          field: "count"))
    }
    return .success(count)
  }
}
