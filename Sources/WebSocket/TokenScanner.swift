/// A cursor over a header value's bytes for the RFC 9110 list grammar.
struct TokenScanner {
  private let bytes: [UInt8]
  private var index = 0

  init(_ text: String) {
    bytes = Array(text.utf8)
  }

  /// `1#extension`, allowing empty list elements as RFC 9110 §5.6.1 asks recipients to.
  mutating func extensionList() -> [WebSocketExtensionOffer]? {
    var offers: [WebSocketExtensionOffer] = []
    while true {
      skipSpace()
      if peek == UInt8(ascii: ",") {
        index += 1
        continue
      }
      if index == bytes.count { break }
      guard let offer = extensionItem() else { return nil }
      offers.append(offer)
      skipSpace()
      if index == bytes.count { break }
      guard peek == UInt8(ascii: ",") else { return nil }
      index += 1
    }
    return offers.isEmpty ? nil : offers
  }

  private mutating func extensionItem() -> WebSocketExtensionOffer? {
    guard let name = token() else { return nil }
    var parameters: [WebSocketExtensionOffer.Parameter] = []
    skipSpace()
    while peek == UInt8(ascii: ";") {
      index += 1
      skipSpace()
      guard let parameterName = token() else { return nil }
      skipSpace()
      var value: String?
      if peek == UInt8(ascii: "=") {
        index += 1
        skipSpace()
        if peek == UInt8(ascii: "\"") {
          guard let quoted = quotedString(), Self.isToken(quoted) else { return nil }
          value = quoted
        } else {
          guard let plain = token() else { return nil }
          value = plain
        }
        skipSpace()
      }
      parameters.append(.init(name: parameterName, value: value))
    }
    return WebSocketExtensionOffer(name: name, parameters: parameters)
  }

  private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

  private mutating func skipSpace() {
    while let byte = peek, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { index += 1 }
  }

  private mutating func token() -> String? {
    let start = index
    while let byte = peek, Self.isTokenByte(byte) { index += 1 }
    guard index > start else { return nil }
    return String(decoding: bytes[start..<index], as: UTF8.self)
  }

  /// RFC 9110 §5.6.4: `DQUOTE *( qdtext / quoted-pair ) DQUOTE`.
  private mutating func quotedString() -> String? {
    index += 1
    var value: [UInt8] = []
    while let byte = peek {
      index += 1
      switch byte {
      case UInt8(ascii: "\""):
        return String(decoding: value, as: UTF8.self)
      case UInt8(ascii: "\\"):
        guard let escaped = peek else { return nil }
        index += 1
        value.append(escaped)
      default:
        value.append(byte)
      }
    }
    return nil
  }

  /// RFC 9110 §5.6.2 `tchar`.
  static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    default:
      Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
    }
  }

  static func isToken(_ text: String) -> Bool {
    !text.isEmpty && text.utf8.allSatisfy(isTokenByte)
  }
}
