/// The decoded `name=value` pairs of a query string (`application/x-www-form-urlencoded`).
public struct QueryParameters: Sendable, Equatable {
  public private(set) var pairs: [(name: String, value: String)] = []

  /// Parses a raw query; fails with 400 for a malformed escape or invalid UTF-8.
  public init(_ query: Substring?) throws(HTTPError) {
    guard let query, !query.isEmpty else { return }
    for part in query.split(separator: "&", omittingEmptySubsequences: true) {
      let equals = part.firstIndex(of: "=")
      let name = try Self.decode(equals.map { part[..<$0] } ?? part)
      let value =
        try equals.map { i throws(HTTPError) in try Self.decode(part[part.index(after: i)...]) }
        ?? ""
      pairs.append((name, value))
    }
  }

  public init(pairs: [(String, String)]) {
    self.pairs = pairs.map { (name: $0.0, value: $0.1) }
  }

  /// The first value of `name`, or nil.
  public subscript(name: String) -> String? {
    pairs.first { $0.name == name }?.value
  }

  public var names: [String] { pairs.map(\.name) }

  /// Fails with 400 when a name is given more than once: which of two values counts is
  /// nowhere agreed (tiles, replays and oEmbed all refuse rather than take the first).
  public func requireDistinctNames() throws(HTTPError) {
    var seen: Set<String> = []
    for name in names where !seen.insert(name).inserted {
      throw HTTPError(.badRequest, "query parameter \"\(name)\" is given twice")
    }
  }

  public static func == (a: QueryParameters, b: QueryParameters) -> Bool {
    a.pairs.elementsEqual(b.pairs) { $0.name == $1.name && $0.value == $1.value }
  }

  static func decode(_ text: Substring) throws(HTTPError) -> String {
    var bytes: [UInt8] = []
    var index = text.utf8.startIndex
    let utf8 = text.utf8
    while index < utf8.endIndex {
      let byte = utf8[index]
      switch byte {
      case UInt8(ascii: "+"):
        bytes.append(UInt8(ascii: " "))
        index = utf8.index(after: index)
      case UInt8(ascii: "%"):
        let first = utf8.index(after: index)
        guard first < utf8.endIndex, utf8.index(after: first) < utf8.endIndex,
          let high = Syntax.hexValue(utf8[first]),
          let low = Syntax.hexValue(utf8[utf8.index(after: first)])
        else { throw HTTPError(.badRequest, "the query has a malformed percent escape") }
        bytes.append(UInt8(high * 16 + low))
        index = utf8.index(first, offsetBy: 2)
      default:
        bytes.append(byte)
        index = utf8.index(after: index)
      }
    }
    guard let decoded = String(validating: bytes, as: UTF8.self) else {
      throw HTTPError(.badRequest, "the query is not valid UTF-8")
    }
    return decoded
  }
}
