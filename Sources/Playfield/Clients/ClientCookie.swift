import HTTP

/// The `playfield_client` cookie that carries a browser's client family (RFC 6265).
enum ClientCookie {
  static let name = "playfield_client"
  /// Seconds a browser keeps the cookie: a year.
  static let maxAge = 365 * 24 * 3600

  /// The family id in the request's `Cookie` header, when it has the shape of one the server
  /// makes (22 URL-safe base64 characters); anything else is no id.
  static func id(in request: Request) -> String? {
    // RFC 6265 §5.4: one `Cookie` field of `name=value` pairs separated by "; ".
    for field in request.headers.values("Cookie") {
      for pair in field.split(separator: ";") {
        let parts = pair.split(separator: "=", maxSplits: 1)
        guard parts.count == 2, trimmed(parts[0]) == name else { continue }
        let value = trimmed(parts[1])
        guard value.utf8.count == 22, value.utf8.allSatisfy(isIdentifierByte) else { return nil }
        return String(value)
      }
    }
    return nil
  }

  /// The `Set-Cookie` value that gives a browser `id`: only this site's own requests send it
  /// back (RFC 6265bis §4.1.2.7 `SameSite=Strict`), and scripts cannot read it (`HttpOnly`).
  static func setCookie(_ id: String) -> String {
    "\(name)=\(id); Path=/; Max-Age=\(maxAge); HttpOnly; SameSite=Strict"
  }

  /// Without leading and trailing spaces and tabs (RFC 6265 §5.2: OWS around each pair).
  private static func trimmed(_ text: Substring) -> Substring {
    let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let first = text.firstIndex(where: { !blank($0) }),
      let last = text.lastIndex(where: { !blank($0) })
    else { return "" }
    return text[first...last]
  }

  private static func isIdentifierByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
      true
    default: false
    }
  }
}
