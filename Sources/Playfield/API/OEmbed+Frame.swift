import HTTP
import JSON

extension OEmbed {
  /// Each demo's natural embed frame, in CSS pixels: the drawing plus a toolbar line.
  static let naturalSizes: [String: (width: Int, height: Int)] = [
    "bouncing-balls": (360, 580), "maze": (480, 540), "holes": (360, 580),
    "tag-cloud": (480, 520), "mandelbrot": (560, 620), "accelerometer": (640, 380),
    "color-picker": (640, 320),
  ]
  /// The frame of a demo without an entry above.
  static let defaultSize = (width: 640, height: 480)

  /// The natural frame of `name`, in CSS pixels.
  static func naturalSize(of name: String) -> (width: Int, height: Int) {
    naturalSizes[name] ?? defaultSize
  }

  /// The natural frame of `name` scaled down (never up, aspect kept) to fit `bounds`.
  static func frameSize(for name: String, within bounds: (width: Int, height: Int)) -> (
    width: Int, height: Int
  ) {
    let natural = naturalSize(of: name)
    let scale = min(
      1, Double(bounds.width) / Double(natural.width),
      Double(bounds.height) / Double(natural.height))
    return (
      max(1, Int((Double(natural.width) * scale).rounded(.down))),
      max(1, Int((Double(natural.height) * scale).rounded(.down)))
    )
  }

  /// The answer as oEmbed XML (oEmbed §2.3.4.2): one element per field, in order.
  static func xml(_ fields: [(String, JSONValue)]) -> Response {
    var text = "<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"yes\"?>\n<oembed>\n"
    for (name, value) in fields {
      let content: String
      switch value {
      case .string(let string): content = escape(string)
      case .number(let number): content = String(Int(number))
      default: content = ""
      }
      text += "  <\(name)>\(content)</\(name)>\n"
    }
    text += "</oembed>\n"
    return Response(
      status: .ok,
      headers: [
        "Content-Type": "text/xml; charset=utf-8", "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
      ],
      body: Array(text.utf8))
  }
}
