import JSON
import Server
import Simulation
import WebSocket

/// `/ws/sessions/ID`: joins the session, checks every client message as it arrives, and
/// answers anything wrong with an `error` message while the stream goes on.
///
/// A command that carries an `id` (a string or a number) is answered either way: `ack` with
/// that id once it is checked and queued for the session, or the `error` with it.
struct SessionSocketHandler: WebSocketHandler {
  let session: LiveSession
  let role: SessionRole
  /// The per-session input-log bound.
  let inputLog: InputLogCap

  /// Most steps one `step` message may ask for.
  static let maxStepCount = 600
  /// Longest string `id`, in characters.
  static let maxIDLength = 64

  func opened(_ socket: WebSocket) {
    session.send(.join(socket, role))
  }

  func closed(_ socket: WebSocket, code: WebSocketCloseCode?, reason: String) {
    session.send(.leave(socket))
  }

  func received(_ message: WebSocketMessage, on socket: WebSocket) {
    switch handle(message) {
    case .success(let reply?):
      socket.send(reply)
    case .success(nil):
      break
    case .failure(let error):
      socket.send(.error(error))
    }
  }

  /// Checks one message and queues its command; returns an immediate reply, if any.
  func handle(_ message: WebSocketMessage) -> Result<ServerMessage?, ClientError> {
    guard case .text(let text) = message else {
      return .failure(ClientError("bad-message", "send JSON text messages, not binary"))
    }
    let parsed: JSONValue
    do {
      parsed = try JSONValue.parse(text, maxDepth: 16)
    } catch {
      return .failure(ClientError("bad-json", "the message is not valid JSON: \(error)"))
    }
    guard case .object(var fields) = parsed else {
      return .failure(ClientError("not-an-object", "a message must be a JSON object with a type"))
    }
    // A ping's id and t are any JSON, echoed in its pong; any other message's id is the
    // sender's name for it, not the model's, and comes back with its answer.
    let id = fields["type"] == "ping" ? nil : fields.removeValue(forKey: "id")
    let answer = checkID(id).flatMap { command(fields) }
    switch answer {
    case .success(let reply):
      return .success(reply ?? id.map { .ack(id: $0) })
    case .failure(var error):
      if let id, Self.isRequestID(id) { error.id = id }
      return .failure(error)
    }
  }

  /// An `id` that is no request id is the message's error.
  private func checkID(_ id: JSONValue?) -> Result<Void, ClientError> {
    guard let id, !Self.isRequestID(id) else { return .success(()) }
    return .failure(
      ClientError(
        "bad-field", "id must be a string of 1 to \(Self.maxIDLength) characters or a number",
        field: "id"))
  }

  /// Checks the message (without its `id`) and queues its command; returns an immediate reply
  /// (a `pong`), if any.
  private func command(_ fields: [String: JSONValue]) -> Result<ServerMessage?, ClientError> {
    guard let typeValue = fields["type"] else {
      return .failure(
        ClientError("missing-type", "a message needs a \"type\" field", field: "type"))
    }
    guard let type = typeValue.stringValue else {
      return .failure(ClientError("bad-field", "type must be a string", field: "type"))
    }

    // Messages anyone may send.
    if type == "ping" {
      return .success(.pong(id: fields["id"], t: fields["t"]))
    }
    return queue(type, .object(fields)).map { nil }
  }

  /// Checks and queues one command other than `ping`.
  private func queue(_ type: String, _ message: JSONValue) -> Result<Void, ClientError> {
    // Session commands and model inputs: only the controller, or a guest its seat's inputs.
    let command: SessionCommand
    switch type {
    case "start":
      command = .start
    case "stop":
      command = .stop
    case "step":
      var count = 1
      if let value = message["count"] {
        guard let n = value.intValue, (1...Self.maxStepCount).contains(n) else {
          return .failure(
            ClientError(
              "bad-field", "count must be an integer from 1 to \(Self.maxStepCount)",
              field: "count"))
        }
        count = n
      }
      command = .step(count)
    default:
      let input: CheckedInput?
      do {
        input = try session.type.checkedInput(from: message, sentBy: role.sender)
      } catch {
        return .failure(ClientError("bad-field", error.description, field: error.field))
      }
      guard let input else {
        return .failure(
          ClientError(
            "unknown-type", "unknown message type \"\(type)\" for \(session.kind)", field: "type"))
      }
      command = .input(input)
    }
    switch role {
    case .controller:
      break
    case .guest(let seat):
      guard seat.inputs.contains(type) else {
        return .failure(
          ClientError(
            "not-controller",
            "the \(seat.label) token cannot send \(type); it needs the control token"))
      }
    case .spectator:
      return .failure(
        ClientError(
          "not-controller", "spectators cannot send \(type); connect with the session's token"))
    }
    if case .input(let input) = command,
      let bound = inputLog.admit(session.id, bytes: input.json.serialized().count)
    {
      return .failure(ClientError("log-full", inputLog.message(bound)))
    }
    guard session.send(command) else {
      return .failure(ClientError("too-many", "too many messages waiting; slow down"))
    }
    return .success(())
  }

  /// A request id: a string of 1 to `maxIDLength` characters, or a finite number.
  static func isRequestID(_ value: JSONValue) -> Bool {
    switch value {
    case .string(let text): (1...maxIDLength).contains(text.count)
    case .number(let number): number.isFinite
    default: false
    }
  }
}
