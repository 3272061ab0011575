import JSON
import Simulation

extension CompareMachine {
  /// `hello`: the group, its transport, its readouts' names and every pane's config, offset,
  /// recording and whole drawable state.
  var hello: [UInt8] {
    var writer = JSONWriter(capacity: 1024)
    writer.beginObject()
    writer.field("type", "hello")
    writer.field("mode", "compare")
    writer.field("group", id)
    writer.field("kind", panes.first.map { Swift.type(of: $0.model).kind } ?? "")
    writer.field("rate", 60)
    writer.field("tick", Int(tick))
    writer.field("end", Int(end))
    writer.field("playing", playing)
    writer.field("speed", speed)
    writeLoop(into: &writer)
    writer.key("readouts")
    writer.beginArray()
    for name in readouts { writer.string(name) }
    writer.endArray()
    writePanes(into: &writer) { pane, writer in
      writer.field("config", pane.model.config)
      writer.field("offset", pane.offset)
      writer.key("recording")
      Self.write(pane.recording, into: &writer)
      pane.model.writeHello(into: &writer)
    }
    writer.key("ambient")
    if let ambient {
      writer.beginObject()
      writer.field("config", ambient.model.config)
      writer.field("end", Int(ambientEnd))
      writer.key("recording")
      Self.write(ambient.recording, into: &writer)
      ambient.model.writeHello(into: &writer)
      writer.endObject()
    } else {
      writer.null()
    }
    writer.endObject()
    return writer.bytes
  }

  /// `{"tick", "frame"}` of the ambient pane: its own tick since its start, and its frame.
  private func writeAmbient(into writer: inout JSONWriter) {
    guard let ambient else { return writer.null() }
    writer.beginObject()
    writer.field("tick", Int(ambient.model.tick - ambient.start.tick))
    writer.key("frame")
    writer.beginObject()
    ambient.model.writeFrame(into: &writer)
    writer.endObject()
    writer.endObject()
  }

  /// `ambient`: the ambient pane alone (while the group's own frames are not due: a seek).
  var ambientMessage: [UInt8] {
    var writer = JSONWriter(capacity: 512)
    writer.beginObject()
    writer.field("type", "ambient")
    writer.key("ambient")
    writeAmbient(into: &writer)
    writer.endObject()
    return writer.bytes
  }

  /// An `error` with `code` and `message`.
  static func errorMessage(_ code: String, _ message: String) -> [UInt8] {
    var writer = JSONWriter(capacity: 256)
    writer.beginObject()
    writer.field("type", "error")
    writer.field("error", code)
    writer.field("message", message)
    writer.endObject()
    return writer.bytes
  }

  /// `frames`: every pane at the same group tick, each pane's own tick, and its readouts; with
  /// `withAmbient`, the ambient pane too (`ambient`).
  func frames(withAmbient: Bool = false) -> [UInt8] {
    var writer = JSONWriter(capacity: 1024)
    writer.beginObject()
    writer.field("type", "frames")
    writer.field("tick", Int(tick))
    writer.key("ticks")
    writer.beginArray()
    for pane in panes { writer.number(Int(pane.model.tick)) }
    writer.endArray()
    writePanes(into: &writer) { pane, writer in pane.model.writeFrame(into: &writer) }
    writer.key("readouts")
    writer.beginArray()
    for pane in panes {
      writer.beginArray()
      for value in readoutValues(pane.model) { writer.number(value) }
      writer.endArray()
    }
    writer.endArray()
    if withAmbient {
      writer.key("ambient")
      writeAmbient(into: &writer)
    }
    writer.endObject()
    return writer.bytes
  }

  /// `"panes": [{...}, ...]`, each pane's object's fields written by `fields`.
  private func writePanes(
    into writer: inout JSONWriter, _ fields: (ComparePane, inout JSONWriter) -> Void
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

  /// `"loop": {"from", "to"}`, or null without one.
  private func writeLoop(into writer: inout JSONWriter) {
    writer.key("loop")
    guard let loop else { return writer.null() }
    writer.beginObject()
    writer.field("from", Int(loop.lowerBound))
    writer.field("to", Int(loop.upperBound))
    writer.endObject()
  }

  /// A pane's `recording`: `{session, first, last}`, or null for a model pane.
  static func write(_ recording: ComparePane.Recording?, into writer: inout JSONWriter) {
    guard let recording else { return writer.null() }
    writer.beginObject()
    writer.field("session", recording.session)
    writer.field("first", Int(recording.first))
    writer.field("last", Int(recording.last))
    writer.endObject()
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
    writer.field("seeking", target != nil || !isSynced)
    writeLoop(into: &writer)
    writer.key("offsets")
    writer.beginArray()
    for pane in panes { writer.number(pane.offset) }
    writer.endArray()
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
