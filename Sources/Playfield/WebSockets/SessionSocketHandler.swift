import JSON
import Server
import Simulation
import WebSocket

/// `/ws/sessions/ID`: joins the session, checks every client message as it arrives, and
/// answers anything wrong with an `error` message while the stream goes on.
///
/// A command that carries an `id` (a string or a number) is answered either way: `ack` with
/// that id once it is checked and queued for the session, or the `error` with it. A `step` is
/// answered once it ran: on a stopped realtime session by the `ack`, sent after the events of
/// its last tick; on an on-demand session by the frame after its last tick, which carries the
/// id, also after those events.
struct SessionSocketHandler: WebSocketHandler {
  let session: LiveSession
  let role: SessionRole
  /// The per-session input-log bound.
  let inputLog: InputLogCap
  /// Who joins: a big `hello` is charged to this client (`HelloWork`), and its questions.
  var client: ClientKey?
  /// Questions waiting per client; nil: unbounded (tests of the handler alone).
  var queries: QueryLimiter?
  /// Most ticks one `step` message may ask for (`--step-ticks`).
  var maxStepCount = Limit<Int>.stepTicks.defaultValue
  /// Longest string `id`, in characters.
  static let maxIDLength = 64

  func opened(_ socket: WebSocket) {
    if let client { session.joins(socket, as: client) }
    session.send(.join(socket, role))
  }

  func closed(_ socket: WebSocket, code: WebSocketCloseCode?, reason: String) {
    // NB: questions of a connection gone are its client's no more, answered or not.
    queries?.end(socket: ObjectIdentifier(socket), count: .max)
    session.send(.leave(socket))
  }

  func received(_ message: WebSocketMessage, on socket: WebSocket) {
    switch handle(message, from: socket) {
    case .success(let reply?):
      socket.send(reply)
    case .success(nil):
      break
    case .failure(let error):
      socket.send(.error(error))
    }
  }

  /// Checks one message from `socket` and queues its command; returns an immediate reply, if
  /// any. A query (`Simulation.queries`) is answered by the session on its next tick instead,
  /// and an on-demand session's `step` by its frame, which carries the id.
  func handle(_ message: WebSocketMessage, from socket: WebSocket? = nil)
    -> Result<ServerMessage?, ClientError>
  {
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
    let answer = checkID(id).flatMap { command(fields, id: id, socket: socket) }
    switch answer {
    case .success(.later):
      return .success(nil)
    case .success(.now(let reply)):
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

  /// When a message is answered: now (a `pong`, or nil for an `ack`), or later by the session
  /// (a query's answer, an on-demand step's frame).
  private enum Reply {
    case now(ServerMessage?)
    case later
  }

  /// Checks the message (without its `id`) and queues its command; returns when it is answered.
  private func command(_ fields: [String: JSONValue], id: JSONValue?, socket: WebSocket?)
    -> Result<Reply, ClientError>
  {
    guard let typeValue = fields["type"] else {
      return .failure(
        ClientError("missing-type", "a message needs a \"type\" field", field: "type"))
    }
    guard let type = typeValue.stringValue else {
      return .failure(ClientError("bad-field", "type must be a string", field: "type"))
    }

    // Messages anyone may send.
    if type == "ping" {
      return .success(.now(.pong(id: fields["id"], t: fields["t"])))
    }
    if type == "flush", let socket {
      if let refusal = session.flushStored(socket, id: id) { return .failure(refusal) }
      return .success(.later)
    }
    if let socket, session.type.queries.contains(type) {
      return ask(type, .object(fields), id: id, socket: socket).map { .later }
    }
    // NB: a step is answered by the session once it ran (its `ack` or frame after its events).
    return queue(type, .object(fields), id: id, from: socket).map { command in
      if case .stepFor = command { .later } else { .now(nil) }
    }
  }

  /// Queues a query for the session, which answers it on its next tick: from a controller, or
  /// from a guest whose seat lists it.
  private func ask(_ type: String, _ query: JSONValue, id: JSONValue?, socket: WebSocket)
    -> Result<Void, ClientError>
  {
    if let refusal = refusal(of: type) { return .failure(refusal) }
    let asker = ObjectIdentifier(socket)
    if let client, let queries, !queries.begin(client, socket: asker) {
      return .failure(ClientError("too-many", queries.message))
    }
    guard session.send(.query(socket, query, role.sender, id: id)) else {
      queries?.end(socket: asker)
      return .failure(ClientError("too-many", "too many messages waiting; slow down"))
    }
    return .success(())
  }

  /// Why this connection's role may not send `type`, or nil if it may.
  private func refusal(of type: String) -> ClientError? {
    switch role {
    case .controller:
      return nil
    case .guest(let seat):
      guard seat.inputs.contains(type) else {
        return ClientError(
          "not-controller",
          "the \(seat.label) token cannot send \(type); it needs the control token")
      }
      return nil
    case .spectator:
      return ClientError(
        "not-controller", "spectators cannot send \(type); connect with the session's token")
    }
  }

  /// Checks and queues one command other than `ping`; returns it.
  private func queue(_ type: String, _ message: JSONValue, id: JSONValue?, from socket: WebSocket?)
    -> Result<SessionCommand, ClientError>
  {
    let onDemand = session.sessionClock == .onDemand
    // Session commands and model inputs: only the controller, or a guest its seat's inputs.
    let command: SessionCommand
    switch type {
    case "start" where onDemand:
      if let refusal = refusal(of: type) { return .failure(refusal) }
      return .failure(
        ClientError(
          "on-demand",
          "this session steps on demand: send step with a count; it never runs on the 60 Hz clock"))
    case "start":
      command = .start
    case "stop":
      command = .stop
    case "step":
      var count = 1
      if let value = message["count"] {
        guard let n = value.intValue, (1...maxStepCount).contains(n) else {
          return .failure(
            ClientError(
              "bad-field", "count must be an integer from 1 to \(maxStepCount)",
              field: "count"))
        }
        count = n
      }
      // NB: whether a realtime session is running is known only when the command applies
      // (a `stop` may be queued just before): the machine refuses a step while it runs.
      if let socket {
        command = .stepFor(socket, count: count, id: id)
      } else {
        command = .step(count)
      }
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
      command = .input(input, from: socket)
    }
    if let refusal = refusal(of: type) { return .failure(refusal) }
    if case .input(let input, _) = command,
      let bound = inputLog.admit(session.id, bytes: input.loggedSize)
    {
      return .failure(ClientError(bound.code, inputLog.message(bound)))
    }
    let counted = command.isInput ? socket : nil
    if let counted { session.accepted(from: counted) }
    guard session.send(command) else {
      if let counted { session.withdrawn(from: counted) }
      return .failure(ClientError("too-many", "too many messages waiting; slow down"))
    }
    return .success(command)
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
