import HTTP
import JSON

extension OEmbed {
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
        "Content-Type": "text/xml; charset=utf-8",
        "X-Content-Type-Options": "nosniff",
      ],
      body: Array(text.utf8))
  }
}
