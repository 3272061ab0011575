import JSON
import Simulation

extension Simulation {
  /// The `frame` message of the current tick (docs/protocol.md), for live sessions and replays.
  func writeFrameMessage(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.field("type", "frame")
    writer.field("tick", Int(tick))
    writer.field("t", Double(tick) / 60, decimals: 4)
    writeFrame(into: &writer)
    writer.endObject()
  }
}
