import JSON
import Simulation

extension ServerMessage {
  /// The message as JSON text bytes.
  var bytes: [UInt8] {
    var writer = JSONWriter(capacity: 256)
    write(into: &writer)
    return writer.bytes
  }

  /// Writes the whole message (one JSON object) after what `writer` holds.
  func write(into writer: inout JSONWriter) {
    writer.beginObject()
    switch self {
    case .hello(let hello):
      writer.field("type", "hello")
      if hello.replayEnd != nil { writer.field("mode", "replay") }
      writer.field("session", hello.session)
      writer.field("kind", Swift.type(of: hello.model).kind)
      writer.field("role", hello.role.name)
      writer.field("rate", 60)
      writer.field("tick", Int(hello.model.tick))
      if let end = hello.replayEnd { writer.field("end", Int(end)) }
      writer.field("running", hello.running)
      writer.field("config", hello.model.config)
      for (seat, token) in hello.seatTokens { writer.field(seat + "Token", token) }
      hello.model.writeHello(into: &writer)
    case .frame(let model):
      writer.field("type", "frame")
      writer.field("tick", Int(model.tick))
      writer.field("t", Double(model.tick) / 60, decimals: 4)
      model.writeFrame(into: &writer)
    case .stepped(let model, let id):
      writer.field("type", "frame")
      if let id { writer.field("id", id) }
      writer.field("tick", Int(model.tick))
      writer.field("t", Double(model.tick) / 60, decimals: 4)
      model.writeFrame(into: &writer)
    case .event(let event, let tick):
      writer.field("type", "event")
      writer.field("tick", Int(tick))
      event.write(into: &writer)
    case .dropped(let count, let tick):
      writer.field("type", "event")
      writer.field("tick", Int(tick))
      writer.field("name", "dropped")
      writer.field("count", count)
    case .status(let status):
      writer.field("type", "status")
      writer.field("tick", Int(status.tick))
      writer.field("running", status.running)
      writer.field("spectators", status.spectators)
      writer.field("controllers", status.controllers)
      writer.field("queued", status.queued)
      writer.key("budget")
      status.budget.write(into: &writer)
    case .replayStatus(let status):
      writer.field("type", "status")
      writer.field("mode", "replay")
      writer.field("tick", Int(status.tick))
      writer.field("end", Int(status.end))
      writer.field("playing", status.playing)
      writer.field("speed", status.speed)
      writer.field("seeking", status.seeking)
    case .error(let error):
      writer.field("type", "error")
      writer.field("error", error.code)
      writer.field("message", error.text)
      if let field = error.field { writer.field("field", field) }
      if let id = error.id { writer.field("id", id) }
      if let wait = error.retryAfterMs { writer.field("retryAfterMs", wait) }
    case .pong(let id, let t):
      writer.field("type", "pong")
      if let id { writer.field("id", id) }
      if let t { writer.field("t", t) }
    case .ack(let id):
      writer.field("type", "ack")
      writer.field("id", id)
    case .stored(let inputs, let tick, let id):
      writer.field("type", "stored")
      writer.field("inputs", inputs)
      if let tick { writer.field("tick", Int(tick)) }
      if let id { writer.field("id", id) }
    case .unstored(let inputs, let why, let id):
      writer.field("type", "unstored")
      writer.field("inputs", inputs)
      writer.field("reason", why)
      if let id { writer.field("id", id) }
    case .answer(let query, let body, let id):
      writer.field("type", "answer")
      writer.field("query", query)
      if let id { writer.field("id", id) }
      writer.key(query)
      writer.raw(body)
    }
    writer.endObject()
  }

  /// The `event` messages of one tick: at most `limit`, then one `dropped` that counts the rest.
  static func events(_ events: [SimulationEvent], tick: UInt64, limit: Int) -> [ServerMessage] {
    var messages = events.prefix(limit).map { ServerMessage.event($0, tick: tick) }
    if events.count > limit { messages.append(.dropped(count: events.count - limit, tick: tick)) }
    return messages
  }
}
