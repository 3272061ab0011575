import JSON

extension Paintbrush {
  /// Hello: the canvas, the brush, the palette, the bounds, and the whole picture as marks.
  public func writeHello(into writer: inout JSONWriter) {
    writer.world(width: Double(settings.width), height: Double(settings.height))
    writer.field("brushRadius", settings.brushRadius)
    writer.field("background", Self.background)
    writer.field("palette", .array(Self.palette.map(JSONValue.string)))
    writer.field(
      "limits",
      [
        "pointsPerMessage": .number(Self.maxPointsPerMessage),
        "maxStrokes": .number(settings.maxStrokes), "maxPoints": .number(settings.maxPoints),
        "maxRadius": .number(Input.maxRadius),
      ] as JSONValue)
    writer.key("marks")
    writer.beginArray()
    for mark in state.marks { mark.write(into: &writer) }
    writer.endArray()
    writeFrame(into: &writer)
  }

  /// The marks at most 80 bytes each besides their points, each point's two coordinates
  /// (`4095.5,`) at most 14, and 1 KiB for the rest.
  public var helloBytesEstimate: Int {
    1024 + 80 * state.marks.count + 14 * state.pointCount
  }

  /// Frame: only the picture's version and counts; the changes travel in `paint` events.
  public func writeFrame(into writer: inout JSONWriter) {
    writer.field("version", state.version)
    writer.field("strokes", state.strokes.count)
    writer.field("points", state.pointCount)
  }
}
