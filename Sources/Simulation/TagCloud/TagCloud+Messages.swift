import JSON

extension TagCloud {
  /// Hello: the view, the sphere radius, the tags with their sizes, the colours, and the
  /// current frame.
  public func writeHello(into writer: inout JSONWriter) {
    writer.world(width: settings.width, height: settings.height)
    writer.field("radius", settings.radius)
    for (key, value) in tagFields.sorted(by: { $0.key < $1.key }) { writer.field(key, value) }
    writer.field(
      "colors", ["background": "#101418", "text": "#e8eef2", "link": "#7fc8ff"] as JSONValue)
    writeFrame(into: &writer)
  }

  /// Frame: each tag's centre in view px, its scale in [0.1, 1] and opacity from depth, the
  /// drawing order from back to front, and the rotation matrix.
  public func writeFrame(into writer: inout JSONWriter) {
    let centreX = settings.width / 2
    let centreY = settings.height / 2
    let points = Self.spiral(state.tags.count).map { state.rotation.apply($0.x, $0.y, $0.z) }
    writer.key("points")
    writer.beginArray()
    for point in points {
      writer.number(centreX + settings.radius * point.x, decimals: 2)
      writer.number(centreY + settings.radius * point.y, decimals: 2)
    }
    writer.endArray()
    writer.key("scale")
    writer.beginArray()
    for point in points { writer.number(0.1 + 0.9 * (point.z + 1) / 2, decimals: 3) }
    writer.endArray()
    writer.key("opacity")
    writer.beginArray()
    for point in points {
      writer.number(
        settings.minOpacity + (1 - settings.minOpacity) * (point.z + 1) / 2, decimals: 3)
    }
    writer.endArray()
    writer.key("order")
    writer.beginArray()
    let order = points.indices.sorted {
      points[$0].z < points[$1].z || (points[$0].z == points[$1].z && $0 < $1)
    }
    for index in order { writer.number(index) }
    writer.endArray()
    writer.key("rotation")
    writer.beginArray()
    for entry in state.rotation.entries { writer.number(entry, decimals: 6) }
    writer.endArray()
    writer.field("dragging", state.dragging)
  }
}
