import Testing

@testable import HTTP

private let date = "Sun, 06 Nov 1994 08:49:37 GMT"

private func head(_ response: Response, keepAlive: Bool? = true) -> String {
  String(
    decoding: ResponseSerializer.head(response, date: date, keepAlive: keepAlive), as: UTF8.self)
}

@Suite struct ResponseSerializerTests {
  @Test func writesStatusDateFieldsAndFraming() {
    let response = Response(
      status: .ok, headers: ["Content-Type": "text/plain"], body: Array("hello".utf8))
    #expect(
      head(response)
        == "HTTP/1.1 200 OK\r\nDate: \(date)\r\nContent-Type: text/plain\r\n"
        + "Connection: keep-alive\r\nContent-Length: 5\r\n\r\n")
    #expect(head(response, keepAlive: false).contains("\r\nConnection: close\r\n"))
  }

  @Test func theServerOwnsTheFraming() {
    // RFC 9112 §6: a wrong length from the application must never reach the wire.
    let response = Response(
      status: .ok,
      headers: [
        "Content-Length": "999", "Transfer-Encoding": "chunked", "Connection": "keep-alive",
      ],
      body: Array("abc".utf8))
    let text = head(response, keepAlive: false)
    #expect(!text.contains("999"))
    #expect(!text.contains("chunked"))
    #expect(!text.contains("keep-alive"))
    #expect(text.hasSuffix("Connection: close\r\nContent-Length: 3\r\n\r\n"))
  }

  @Test func noLengthWhereTheStatusForbidsABody() {
    for status in [HTTPStatus.notModified, .noContent, HTTPStatus(100)] {
      #expect(!head(Response(status: status, body: [])).contains("Content-Length"))
    }
    #expect(head(Response(status: .notFound)).contains("Content-Length: 0\r\n"))
  }

  @Test func everyFramingCaseByteForByte() {
    let notFound = Response(status: .notFound, body: Array("no".utf8))
    let prefix = "HTTP/1.1 404 Not Found\r\nDate: \(date)\r\n"
    #expect(
      head(notFound, keepAlive: true) == prefix
        + "Connection: keep-alive\r\nContent-Length: 2\r\n\r\n")
    #expect(
      head(notFound, keepAlive: false) == prefix + "Connection: close\r\nContent-Length: 2\r\n\r\n")
    #expect(head(notFound, keepAlive: nil) == prefix + "Content-Length: 2\r\n\r\n")
    let notModified = Response(status: .notModified)
    let head304 = "HTTP/1.1 304 Not Modified\r\nDate: \(date)\r\n"
    #expect(head(notModified, keepAlive: true) == head304 + "Connection: keep-alive\r\n\r\n")
    #expect(head(notModified, keepAlive: false) == head304 + "Connection: close\r\n\r\n")
    #expect(head(notModified, keepAlive: nil) == head304 + "\r\n")
    #expect(
      head(Response(status: .ok), keepAlive: nil)
        == "HTTP/1.1 200 OK\r\nDate: \(date)\r\nContent-Length: 0\r\n\r\n")
  }

  @Test func headerValuesAndCombinedFields() {
    let headers: HTTPHeaders = [
      "If-None-Match": "\"a\"", "Accept": "*/*", "if-none-match": "\"b\", \"c\"",
    ]
    #expect(headers.values("IF-NONE-MATCH") == ["\"a\"", "\"b\", \"c\""])
    #expect(headers.combined("If-None-Match") == "\"a\", \"b\", \"c\"")
    #expect(headers.combined("Accept") == "*/*")
    #expect(headers.combined("If-Match") == nil)
    #expect(headers.values("If-Match").isEmpty)
  }

  @Test func switchingProtocolsKeepsItsConnectionField() {
    let response = Response(
      status: .switchingProtocols, headers: ["Upgrade": "websocket", "Connection": "Upgrade"])
    let text = head(response, keepAlive: nil)
    #expect(text.contains("Connection: Upgrade\r\n"))
    #expect(!text.contains("keep-alive"))
  }

  @Test func fieldsThatCouldSplitTheHeadAreDropped() {
    let response = Response(
      status: .ok,
      headers: ["X-Evil": "a\r\nSet-Cookie: b", "Bad Name": "c", "X-Good": "d"])
    let text = head(response)
    #expect(!text.contains("Set-Cookie"))
    #expect(!text.contains("Bad Name"))
    #expect(text.contains("X-Good: d\r\n"))
  }

  @Test func preparedFieldsGiveTheSameBytes() {
    var response = Response(
      status: .ok, headers: ["Content-Type": "text/css", "ETag": "\"x\"", "Connection": "close"],
      body: Array(repeating: 65, count: 1234))
    let plain = head(response)
    response.prepare()
    #expect(response.preparedFields != nil)
    #expect(head(response) == plain)
  }

  @Test func changingHeadersDropsThePreparedForm() {
    var response = Response(status: .ok, headers: ["A": "1"])
    response.prepare()
    response.headers.add("B", "2")
    #expect(response.preparedFields == nil)
    #expect(head(response).contains("B: 2\r\n"))
  }

  @Test(arguments: [0, 7, 10, 99, 100, 4096, 1_048_576, 1_234_567_890, Int.max])
  func lengthsAreWrittenInDecimal(_ count: Int) {
    var out: [UInt8] = []
    ResponseSerializer.appendDecimal(&out, count)
    #expect(String(decoding: out, as: UTF8.self) == String(count))
  }
}
