import JSON
import Server
import Simulation
import WebSocket

/// `/ws/sessions/ID`: joins the session, checks every client message as it arrives, and
/// answers anything wrong with an `error` message while the stream goes on.
struct SessionSocketHandler: WebSocketHandler {
  let session: LiveSession
  let role: SessionRole
  /// The per-session input-log bound.
  let inputLog: InputLogCap

  /// Most steps one `step` message may ask for.
  static let maxStepCount = 600

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
    guard case .object = parsed else {
      return .failure(ClientError("not-an-object", "a message must be a JSON object with a type"))
    }
    guard let typeValue = parsed["type"] else {
      return .failure(
        ClientError("missing-type", "a message needs a \"type\" field", field: "type"))
    }
    guard let type = typeValue.stringValue else {
      return .failure(ClientError("bad-field", "type must be a string", field: "type"))
    }

    // Messages anyone may send.
    if type == "ping" {
      return .success(.pong(id: parsed["id"], t: parsed["t"]))
    }

    // Session commands and model inputs: only the controller.
    let command: SessionCommand
    switch type {
    case "start":
      command = .start
    case "stop":
      command = .stop
    case "step":
      var count = 1
      if let value = parsed["count"] {
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
        input = try session.type.checkedInput(from: parsed, sentBy: role.sender)
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
    if case .input = command, !inputLog.admit(session.id) {
      return .failure(
        ClientError(
          "log-full",
          "this session has logged \(inputLog.maxInputs) inputs, the most one may; it takes no more input"
        ))
    }
    guard session.send(command) else {
      return .failure(ClientError("too-many", "too many messages waiting; slow down"))
    }
    return .success(nil)
  }
}
