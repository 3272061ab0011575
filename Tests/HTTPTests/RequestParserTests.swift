import TestSupport
import Testing

@testable import HTTP

/// Parses `text` as one whole input and returns the step.
private func parse(_ text: String, limits: HTTPLimits = .default) -> RequestParser.Step {
  var parser = RequestParser(limits: limits)
  return parser.parse(Array(text.utf8)).0
}

private func request(_ text: String) throws -> Request {
  guard case .request(let request) = parse(text) else {
    Issue.record("expected a request from \(text.debugDescription), got \(parse(text))")
    throw CancellationError()
  }
  return request
}

private func status(_ text: String, limits: HTTPLimits = .default) -> Int? {
  switch parse(text, limits: limits) {
  case .failure(let error): error.status.code
  case .request: 200
  case .needMore, .expectContinue: nil
  }
}

@Suite struct RequestParserTests {
  @Test func simpleGet() throws {
    let r = try request("GET /a/b?x=1 HTTP/1.1\r\nHost: example.com\r\nAccept: */*\r\n\r\n")
    #expect(r.method == .get)
    #expect(r.target == "/a/b?x=1")
    #expect(r.path == "/a/b")
    #expect(r.query == "x=1")
    #expect(r.version == .http1_1)
    #expect(r.headers["host"] == "example.com")
    #expect(r.body.isEmpty)
    #expect(r.keepAlive)
  }

  @Test func thePathFollowsTheTarget() throws {
    // The path's length is found once per target: a target set later (the parser's, an
    // absolute form turned into origin form, a handler's) must move it too.
    let absolute = try request(
      "GET http://example.com/x/y?q=1#f HTTP/1.1\r\nHost: example.com\r\n\r\n")
    #expect(absolute.path == "/x/y")
    #expect(absolute.query == "q=1")
    var changed = Request(method: .get, target: "/a?b")
    #expect(changed.path == "/a")
    changed.target = "/longer/path#frag"
    #expect(changed.path == "/longer/path")
    changed.target = "/é/ü?x"
    #expect(changed.path == "/é/ü")
  }

  @Test func bareLineFeedsAreAccepted() throws {
    let r = try request("GET / HTTP/1.1\nHost: a\n\n")
    #expect(r.headers["Host"] == "a")
  }

  @Test func leadingEmptyLinesAreIgnored() throws {
    let r = try request("\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n")
    #expect(r.path == "/")
  }

  @Test func fieldValuesAreTrimmed() throws {
    let r = try request("GET / HTTP/1.1\r\nHost: a\r\nX-Thing: \t spaced out \t\r\n\r\n")
    #expect(r.headers["x-thing"] == "spaced out")
  }

  @Test func aPostWithoutLengthHasAnEmptyBody() throws {
    // RFC 9112 §6.3: neither Content-Length nor Transfer-Encoding means no body.
    let r = try request("POST /p HTTP/1.1\r\nHost: a\r\n\r\n")
    #expect(r.method == .post && r.body.isEmpty && !r.declaresBody)
  }

  @Test func contentLengthBody() throws {
    let r = try request("POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello")
    #expect(r.body == Array("hello".utf8))
  }

  @Test func repeatedContentLengthIsRefusedEvenWhenEqual() {
    // RFC 9110 §8.6 allows merging equal values; refusing them (as nginx does) is safer.
    #expect(
      status("POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc")
        == 400)
    #expect(status("POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 3, 3\r\n\r\nabc") == 400)
  }

  @Test func chunkedBodyWithExtensionsAndTrailers() throws {
    let r = try request(
      "POST /p HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
        + "5;name=value\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: yes\r\n\r\n")
    #expect(r.body == Array("hello world".utf8))
  }

  @Test func absoluteFormBecomesOriginFormWithItsHost() throws {
    let r = try request("GET http://example.org:8080/x?y HTTP/1.1\r\nHost: other\r\n\r\n")
    #expect(r.target == "/x?y")
    #expect(r.headers["Host"] == "example.org:8080")
  }

  @Test func http10WithoutHostIsFineAndClosesByDefault() throws {
    let r = try request("GET / HTTP/1.0\r\n\r\n")
    #expect(!r.keepAlive)
    let kept = try request("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
    #expect(kept.keepAlive)
  }

  @Test(arguments: ["a", "a:80", "a:", "[::1]", "[::1]:8080", "127.0.0.1:1", "a.b-c_d~e"])
  func validHosts(_ host: String) throws {
    let r = try request("GET / HTTP/1.1\r\nHost: \(host)\r\n\r\n")
    #expect(r.headers["Host"] == host)
  }

  @Test func chunkSizesMayHaveLeadingZerosAndLongExtensions() throws {
    let zeros = String(repeating: "0", count: 200)
    let ext = ";name=" + String(repeating: "v", count: 20_000)
    let r = try request(
      "POST /p HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
        + "\(zeros)5\(ext)\r\nhello\r\n0\r\n\r\n")
    #expect(r.body == Array("hello".utf8))
  }

  @Test func absoluteFormNeedsNoHostField() throws {
    let r = try request("GET http://example.org/x HTTP/1.1\r\n\r\n")
    #expect(r.headers["Host"] == "example.org")
  }

  @Test func connectionCloseEndsKeepAlive() throws {
    let r = try request("GET / HTTP/1.1\r\nHost: a\r\nConnection: Keep-Alive, close\r\n\r\n")
    #expect(!r.keepAlive)
  }

  @Test(arguments: [
    ("GET / HTTP/1.1\r\n\r\n", 400),  // no Host in HTTP/1.1
    ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
    ("GET / HTTP/1.1\r\nHost: a b\r\n\r\n", 400),
    ("GET / HTTP/1.1\r\nHost: a/b\r\n\r\n", 400),
    ("GET / HTTP/1.1\r\nHost: \r\n\r\n", 400),
    ("GET / HTTP/1.1\r\nHost : a\r\n\r\n", 400),  // space before colon
    ("GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n", 400),  // obs-fold
    ("GET / HTTP/1.1\r\nHost: a\r\nNoColon\r\n\r\n", 400),
    ("GET / HTTP/1.1\r\nHost: a\r\nBad\u{1}Name: x\r\n\r\n", 400),
    ("GET / HTTP/1.1\r\nHost: a\r\nX: a\u{0}b\r\n\r\n", 400),
    ("GET / HTTP/1.1\r\nHost: a\r\nX: a\rb\r\n\r\n", 400),  // bare CR
    ("GET / HTTP/1.1\rHost: a\r\n\r\n", 400),
    ("GET /\u{7f} HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    ("GET\t/ HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    ("GET / HTTP/1.1 extra\r\nHost: a\r\n\r\n", 400),
    ("GET /\r\nHost: a\r\n\r\n", 400),  // HTTP/0.9 style
    ("GET / http/1.1\r\nHost: a\r\n\r\n", 400),
    ("GET / HTTP/1\r\nHost: a\r\n\r\n", 400),
    ("GET / HTTP/1.1.1\r\nHost: a\r\n\r\n", 400),
    ("GET / HTTP/2.0\r\nHost: a\r\n\r\n", 505),
    ("GET / HTTP/0.9\r\nHost: a\r\n\r\n", 505),
    ("GET / HTTP/3.0\r\nHost: a\r\n\r\n", 505),
    ("G(T / HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    ("FOO / HTTP/1.1\r\nHost: a\r\n\r\n", 501),
    ("TRACE / HTTP/1.1\r\nHost: a\r\n\r\n", 501),
    ("CONNECT a:443 HTTP/1.1\r\nHost: a\r\n\r\n", 501),
    // Methods are matched as whole, case-sensitive names (compared as one packed word).
    ("get / HTTP/1.1\r\nHost: a\r\n\r\n", 501),
    ("GETS / HTTP/1.1\r\nHost: a\r\n\r\n", 501),
    ("GE / HTTP/1.1\r\nHost: a\r\n\r\n", 501),
    ("OPTIONSS / HTTP/1.1\r\nHost: a\r\n\r\n", 501),
    ("PUTT / HTTP/1.1\r\nHost: a\r\n\r\n", 501),
    ("GET / HTTQ/1.1\r\nHost: a\r\n\r\n", 400),
    ("GET / XTTP/1.1\r\nHost: a\r\n\r\n", 400),
    ("GET / HTTP-1.1\r\nHost: a\r\n\r\n", 400),
    ("GET / HTTP/1-1\r\nHost: a\r\n\r\n", 400),
    ("GET * HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    ("GET relative HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    ("GET http://u@h/ HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
    ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", 400),
    ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1, 2\r\n\r\n", 400),
    ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n", 400),
    ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: +1\r\n\r\n", 400),
    ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0x10\r\n\r\n", 400),
    ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1 2\r\n\r\n", 400),
    ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: \r\n\r\n", 400),
    ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999999\r\n\r\n", 413),
    ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1048577\r\n\r\n", 413),
    ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n", 400),
    ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 501),
    ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, chunked\r\n\r\n", 400),
    ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: identity\r\n\r\n", 400),
    ("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
    ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
    ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\n", 400),
    ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n 5\r\n", 400),
    ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0x5\r\n", 400),
    ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n\r\n", 400),
    ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcdef\r\n", 400),
    ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffff\r\n", 413),
    ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5 x\r\n", 400),
    ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;a=\u{1}\r\n", 400),
    ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\rx\r\n", 400),
    ("GET / HTTP/1.1\r\nHost: :80\r\n\r\n", 400),
    ("GET / HTTP/1.1\r\nHost: a..b\r\n\r\n", 400),
    ("GET / HTTP/1.1\r\nHost: a:b\r\n\r\n", 400),
    ("GET / HTTP/1.1\r\nHost: a@b\r\n\r\n", 400),
    ("GET / HTTP/1.1\r\nHost: [::1\r\n\r\n", 400),
    ("GET http://a:b/ HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    ("GET http://a/ HTTP/1.1\r\nHost: a\r\nHost: a\r\n\r\n", 400),
    ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n100001\r\n", 413),
    ("GET / HTTP/1.1\r\nHost: a\r\nExpect: something\r\n\r\n", 417),
  ])
  func rejects(_ input: String, expected: Int) {
    #expect(status(input) == expected, "\(input.debugDescription)")
  }

  @Test func longRequestLineIs414() {
    let target = "/" + String(repeating: "a", count: 9000)
    #expect(status("GET \(target) HTTP/1.1\r\nHost: a\r\n\r\n") == 414)
    // Without a line end yet, the length alone is enough to answer.
    #expect(status("GET \(target)") == 414)
  }

  @Test func largeHeadIs431() {
    let field = "X-Big: " + String(repeating: "b", count: 8000) + "\r\n"
    #expect(status("GET / HTTP/1.1\r\nHost: a\r\n" + field + field + field + "\r\n") == 431)
    #expect(status("GET / HTTP/1.1\r\nHost: a\r\n" + field + field + field) == 431)
  }

  @Test func longFieldLineIs431() {
    let field = "X-Long: " + String(repeating: "v", count: 8 * 1024) + "\r\n"
    #expect(status("GET / HTTP/1.1\r\nHost: a\r\n" + field + "\r\n") == 431)
    // Unfinished, it is refused as soon as it passes the limit.
    #expect(status("GET / HTTP/1.1\r\nHost: a\r\n" + field.dropLast(2)) == 431)
    let justFits = "X-Long: " + String(repeating: "v", count: 8 * 1024 - 8) + "\r\n"
    #expect(status("GET / HTTP/1.1\r\nHost: a\r\n" + justFits + "\r\n") == 200)
  }

  @Test func everyImplementedMethodIsItsCase() throws {
    let methods: [(String, HTTPMethod)] = [
      ("GET", .get), ("HEAD", .head), ("POST", .post), ("PUT", .put), ("DELETE", .delete),
      ("OPTIONS", .options), ("PATCH", .patch),
    ]
    for (name, method) in methods {
      let r = try request("\(name) / HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n")
      #expect(r.method == method, "\(name)")
    }
    #expect(try request("GET / HTTP/1.0\r\n\r\n").version == HTTPVersion(major: 1, minor: 0))
  }

  @Test func badLinesAreRefusedBeforeTheHeadEnds() {
    // Each line is checked as it ends; nobody waits for the empty line to refuse junk.
    #expect(status("\u{0}\u{1}\u{2}\n\u{3}") == 400)
    #expect(status("GET / HTTP/1.1\r\nHost: a\r\nNo colon\r\n") == 400)
    #expect(status("GET / HTTP/2.0\r\n") == 505)
    #expect(status("BREW / HTTP/1.1\r\n") == 501)
    #expect(status("GET / HTTP/1.1\r\nHost: a\r\n") == nil)
  }

  @Test func tooManyFieldsIs431() {
    let fields = (0..<1025).map { "X\($0):\r\n" }.joined()
    #expect(status("GET / HTTP/1.1\r\nHost: a\r\n" + fields + "\r\n") == 431)
  }

  @Test func junkIsRejectedBeforeALineEnds() {
    // A TLS ClientHello or other binary junk is answered without waiting for a newline.
    #expect(status("\u{16}\u{3}\u{1}\u{0}") == 400)
    #expect(status("GE") == nil)
  }

  @Test func expectContinueAsksForAnInterimResponse() {
    var parser = RequestParser()
    let head = Array(
      "POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n".utf8)
    let (first, used) = parser.parse(head)
    guard case .expectContinue = first else {
      Issue.record("expected expectContinue, got \(first)")
      return
    }
    #expect(used == head.count)
    let (second, _) = parser.parse(Array("hi".utf8))
    guard case .request(let request) = second else {
      Issue.record("expected the request, got \(second)")
      return
    }
    #expect(request.body == Array("hi".utf8))
  }

  @Test func pipelinedRequestsComeOneAtATime() {
    let input = Array(
      "GET /1 HTTP/1.1\r\nHost: a\r\n\r\nPOST /2 HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\n\r\nxGET /3 HTTP/1.1\r\nHost: a\r\n\r\n"
        .utf8)
    var parser = RequestParser()
    var offset = 0
    var paths: [String] = []
    while offset < input.count {
      let (step, used) = parser.parse(Array(input[offset...]))
      offset += used
      guard case .request(let request) = step else {
        Issue.record("unexpected \(step)")
        return
      }
      paths.append(request.target)
    }
    #expect(paths == ["/1", "/2", "/3"])
  }

  /// Property: the same bytes split anywhere give the same requests.
  @Test func anySplitGivesTheSameResult() {
    let input = Array(
      ("POST /upload?x=1 HTTP/1.1\r\nHost: example\r\nTransfer-Encoding: chunked\r\n\r\n"
        + "4\r\nWiki\r\n5;e=1\r\npedia\r\n0\r\nT: 1\r\n\r\n"
        + "GET /next HTTP/1.1\r\nHost: example\r\nContent-Length: 3\r\n\r\nabc").utf8)
    var generator = SplitMix64(seed: 42)
    for _ in 0..<500 {
      var cuts = Set<Int>()
      for _ in 0..<Int(generator.next() % 12) {
        cuts.insert(Int(generator.next() % UInt64(input.count)))
      }
      let bounds = ([0] + cuts.sorted() + [input.count])
      var parser = RequestParser()
      var pending: [UInt8] = []
      var results: [String] = []
      for (start, end) in zip(bounds, bounds.dropFirst()) where start < end {
        pending += input[start..<end]
        while !pending.isEmpty {
          let (step, used) = parser.parse(pending)
          pending.removeFirst(used)
          if case .request(let request) = step {
            results.append("\(request.target) \(String(decoding: request.body, as: UTF8.self))")
          } else if case .failure(let error) = step {
            results.append("error \(error)")
          } else if used == 0 {
            break
          }
        }
      }
      #expect(results == ["/upload?x=1 Wikipedia", "/next abc"])
    }
  }

  /// Property: random bytes never crash the parser and always end in a defined step.
  @Test func randomBytesNeverCrash() {
    var generator = SplitMix64(seed: 7)
    let alphabet = Array(
      "GET POST / HTTP/1.1\r\n:Host a0123456789abcdefContent-Length Transfer-Encoding chunked;\t"
        .utf8)
    for _ in 0..<3000 {
      let length = Int(generator.next() % 300)
      let bytes = (0..<length).map { _ -> UInt8 in
        generator.next() % 4 == 0
          ? UInt8(truncatingIfNeeded: generator.next())
          : alphabet[Int(generator.next() % UInt64(alphabet.count))]
      }
      var parser = RequestParser()
      var rest = bytes[...]
      var rounds = 0
      while !rest.isEmpty && rounds < 100 {
        rounds += 1
        let (step, used) = parser.parse(Array(rest))
        #expect(used <= rest.count)
        rest = rest.dropFirst(used)
        if case .failure = step { break }
        if case .needMore = step, used == 0 { break }
      }
    }
  }
}
