import Testing

@testable import HTTP

/// A parsed request's fields are kept as the head's bytes (issue 31); every way of reading and
/// changing them answers as for fields given as strings.
@Suite struct ParsedHeadersTests {
  static let head =
    "GET / HTTP/1.1\r\nHost: a.example\r\nACCEPT: text/html\r\nX-Many: 1\r\nconnection: Keep-Alive, Upgrade\r\n"
    + "x-many: 2 \r\nEmpty:\r\nX-Obs: caf\u{E9}\r\n\r\n"

  static func parsed() throws -> HTTPHeaders {
    var parser = RequestParser()
    guard case .request(let request) = parser.parse(Array(head.utf8)).0 else {
      Issue.record("the head should parse")
      throw CancellationError()
    }
    return request.headers
  }

  static let listed: HTTPHeaders = [
    "Host": "a.example", "ACCEPT": "text/html", "X-Many": "1",
    "connection": "Keep-Alive, Upgrade", "x-many": "2", "Empty": "", "X-Obs": "caf\u{E9}",
  ]

  @Test func lookupsAnswerAsForListedFields() throws {
    let headers = try Self.parsed()
    guard case .packed = headers.storage else {
      Issue.record("the parser made Fields")
      return
    }
    for fields in [headers, Self.listed] {
      #expect(fields.count == 7)
      #expect(fields["host"] == "a.example")
      #expect(fields["Accept"] == "text/html")
      #expect(fields["X-MANY"] == "1")
      #expect(fields.values("x-Many") == ["1", "2"])
      #expect(fields.combined("X-Many") == "1, 2")
      #expect(fields["Empty"] == "")
      #expect(fields.contains("empty") && !fields.contains("Cookie"))
      #expect(fields["Cookie"] == nil && fields.values("Cookie").isEmpty)
      #expect(fields.combined("Cookie") == nil)
      #expect(
        fields.hasToken("Connection", "upgrade") && fields.hasToken("Connection", "keep-alive"))
      #expect(!fields.hasToken("Connection", "close") && !fields.hasToken("Host", "a"))
      #expect(fields.tokens("CONNECTION") == ["keep-alive", "upgrade"])
      #expect(fields["X-Obs"] == "caf\u{E9}")
      #expect(
        fields.fields.map(\.name) == [
          "Host", "ACCEPT", "X-Many", "connection", "x-many", "Empty", "X-Obs",
        ])
    }
    #expect(headers == Self.listed)
  }

  @Test func changesKeepEveryOtherFieldInOrder() throws {
    var headers = try Self.parsed()
    headers.remove("x-many")
    #expect(headers.fields.map(\.name) == ["Host", "ACCEPT", "connection", "Empty", "X-Obs"])
    headers.set("Host", "b.example")
    headers.add("X-New", "3")
    #expect(headers["HOST"] == "b.example" && headers["x-new"] == "3")
    #expect(headers.count == 6)
    var untouched = try Self.parsed()
    untouched.remove("Absent")
    #expect(untouched == Self.listed)
  }

  /// Names are first sifted by their length modulo 64; names whose lengths share that are
  /// still told apart.
  @Test func namesOfLengthsThatShareABitAreToldApart() throws {
    let long = String(repeating: "x", count: 68)
    var parser = RequestParser()
    let head = "GET / HTTP/1.1\r\nHost: h\r\n\(long): 1\r\nabcd: 2\r\n\r\n"
    guard case .request(let request) = parser.parse(Array(head.utf8)).0 else {
      Issue.record("the head should parse")
      return
    }
    #expect(request.headers["HOST"] == "h" && request.headers["ABCD"] == "2")
    #expect(request.headers[long.uppercased()] == "1")
    #expect(request.headers["wxyz"] == nil && request.headers[long + "y"] == nil)
    #expect(request.headers[String(repeating: "y", count: 68)] == nil)
    #expect(!request.headers.contains("Range"))
  }

  /// A field line too long for the packed form's lengths (past the default limits) is kept
  /// as a `Field`, and every field still answers.
  @Test func aLineTooLongToPackIsKeptAsAField() {
    var limits = HTTPLimits()
    limits.maxFieldLine = 3 << 20
    limits.maxHeaderBlock = 4 << 20
    let long = String(repeating: "v", count: HTTPHeaders.maxPackedLength)
    var parser = RequestParser(limits: limits)
    let head = "GET / HTTP/1.1\r\nHost: h\r\nX-Long: \(long)\r\nX-After: 1\r\n\r\n"
    guard case .request(let request) = parser.parse(Array(head.utf8)).0 else {
      Issue.record("the head should parse")
      return
    }
    #expect(request.headers["x-long"] == long)
    #expect(request.headers["host"] == "h" && request.headers["X-After"] == "1")
    #expect(request.headers.fields.map(\.name) == ["Host", "X-Long", "X-After"])
  }
}
