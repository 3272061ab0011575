import JSON
import Simulation

extension CompareMachine {
  /// `hello`: the group, its transport and every pane's config and whole drawable state.
  var hello: [UInt8] {
    var writer = JSONWriter(capacity: 1024)
    writer.beginObject()
    writer.field("type", "hello")
    writer.field("mode", "compare")
    writer.field("group", id)
    writer.field("kind", panes.first.map { Swift.type(of: $0).kind } ?? "")
    writer.field("rate", 60)
    writer.field("tick", Int(tick))
    writer.field("end", Int(end))
    writer.field("playing", playing)
    writer.field("speed", speed)
    writePanes(into: &writer) { pane, writer in
      writer.field("config", pane.config)
      pane.writeHello(into: &writer)
    }
    writer.endObject()
    return writer.bytes
  }

  /// `frames`: every pane at the same tick.
  var frames: [UInt8] {
    var writer = JSONWriter(capacity: 1024)
    writer.beginObject()
    writer.field("type", "frames")
    writer.field("tick", Int(tick))
    writePanes(into: &writer) { pane, writer in pane.writeFrame(into: &writer) }
    writer.endObject()
    return writer.bytes
  }

  /// `"panes": [{...}, ...]`, each pane's object's fields written by `fields`.
  private func writePanes(
    into writer: inout JSONWriter, _ fields: (any Simulation, inout JSONWriter) -> Void
  ) {
    writer.key("panes")
    writer.beginArray()
    for pane in panes {
      writer.beginObject()
      fields(pane, &writer)
      writer.endObject()
    }
    writer.endArray()
  }

  /// `status`: the transport.
  var status: [UInt8] {
    var writer = JSONWriter(capacity: 128)
    writer.beginObject()
    writer.field("type", "status")
    writer.field("mode", "compare")
    writer.field("tick", Int(tick))
    writer.field("end", Int(end))
    writer.field("playing", playing)
    writer.field("speed", speed)
    writer.field("seeking", target != nil)
    writer.endObject()
    return writer.bytes
  }

  /// `diverged`: the first tick at which the panes' frames differ.
  static func divergedMessage(_ tick: UInt64) -> [UInt8] {
    var writer = JSONWriter(capacity: 48)
    writer.beginObject()
    writer.field("type", "diverged")
    writer.field("tick", Int(tick))
    writer.endObject()
    return writer.bytes
  }
}
