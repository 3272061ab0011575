import JSON
import Simulation

extension SimulationEvent {
  /// The `event` messages for one tick's events: at most `limit`, then one `dropped` event
  /// that counts the rest.
  static func messages(_ events: [SimulationEvent], tick: UInt64, limit: Int) -> [[UInt8]] {
    var messages: [[UInt8]] = []
    for event in events.prefix(limit) {
      var writer = JSONWriter(capacity: 128)
      writer.beginObject()
      writer.field("type", "event")
      writer.field("tick", Int(tick))
      event.write(into: &writer)
      writer.endObject()
      messages.append(writer.bytes)
    }
    if events.count > limit {
      messages.append(
        Array(
          #"{"type":"event","tick":\#(tick),"name":"dropped","count":\#(events.count - limit)}"#
            .utf8))
    }
    return messages
  }
}
