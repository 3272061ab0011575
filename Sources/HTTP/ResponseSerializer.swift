/// Writes a response head: status line, the response's fields, and the framing fields.
public enum ResponseSerializer {
  /// The head bytes, ending in the empty line. Adds `Date`, and `Content-Length` unless the
  /// status forbids a body; drops any field whose name or value could split the head.
  public static func head(_ response: Response, date: String) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(256 + response.headers.count * 40)
    out.append(contentsOf: "HTTP/1.1 \(response.status.code) \(response.status.reason)\r\n".utf8)
    append(&out, "Date", date)
    for field in response.headers where isSafe(field) {
      append(&out, field.name, field.value)
    }
    if !response.status.forbidsBody && !response.headers.contains("Content-Length") {
      append(&out, "Content-Length", String(response.body.count))
    }
    out.append(contentsOf: "\r\n".utf8)
    return out
  }

  @inline(__always)
  private static func append(_ out: inout [UInt8], _ name: String, _ value: String) {
    out.append(contentsOf: name.utf8)
    out.append(UInt8(ascii: ":"))
    out.append(UInt8(ascii: " "))
    out.append(contentsOf: value.utf8)
    out.append(0x0D)
    out.append(0x0A)
  }

  private static func isSafe(_ field: HTTPHeaders.Field) -> Bool {
    Syntax.isToken(field.name.utf8) && field.value.utf8.allSatisfy(Syntax.isFieldValueByte)
  }
}
