import JSON

extension JSONWriter {
  /// Writes `"world": {"width": W, "height": H}` (px), the first field of every hello.
  mutating func world(width: Double, height: Double) {
    key("world")
    beginObject()
    field("width", width)
    field("height", height)
    endObject()
  }

  /// Writes the pair `[x, y]`, each rounded to `decimals` places.
  mutating func point(_ x: Double, _ y: Double, decimals: Int) {
    beginArray()
    number(x, decimals: decimals)
    number(y, decimals: decimals)
    endArray()
  }
}
