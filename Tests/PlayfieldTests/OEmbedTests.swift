import HTTP
import JSON
import Testing

@testable import Playfield

private let oEmbed = OEmbed(demos: Demo.all)

private func answer(_ query: String) -> Response {
  oEmbed.handle(Request(method: .get, target: "/oembed?" + query, headers: ["Host": "h:8080"]))
}

private func json(_ response: Response) throws -> [String: JSONValue] {
  let value = try JSONValue.parse(response.body)
  guard case .object(let object) = value else { throw OEmbedTestError.notAnObject }
  return object
}

private enum OEmbedTestError: Error { case notAnObject }

private let maze = "url=http%3A%2F%2Fh%3A8080%2Fdemos%2Fmaze%3Fsession%3Dabc"

@Suite struct OEmbedTests {
  @Test func jsonAnswerNamesTheEmbedPageAndItsNaturalSize() throws {
    let response = answer(maze)
    #expect(response.status == .ok)
    #expect(response.headers["Content-Type"] == "application/json")
    let object = try json(response)
    #expect(object["version"] == .string("1.0"))
    #expect(object["type"] == .string("rich"))
    #expect(object["provider_url"] == .string("http://h:8080/"))
    #expect(object["width"] == .number(480))
    #expect(object["height"] == .number(540))
    guard case .string(let html) = object["html"] else {
      Issue.record("no html")
      return
    }
    #expect(html.contains("src=\"http://h:8080/embed/maze?session=abc\""))
    #expect(html.contains("width=\"480\" height=\"540\""))
    #expect(html.contains("allow=\"fullscreen; accelerometer; gyroscope\""))
    // Chromium warns when both are given; `allow` already grants fullscreen.
    #expect(!html.contains("allowfullscreen"))
  }

  @Test func answersMayBeKeptForADay() throws {
    for query in [maze, maze + "&format=xml"] {
      let response = answer(query)
      #expect(response.headers["Cache-Control"] == "public, max-age=86400", "\(query)")
    }
    #expect(try json(answer(maze))["cache_age"] == .number(86400))
    #expect(answer("url=http%3A%2F%2Fevil.example%2Fdemos%2Fmaze").headers["Cache-Control"] == nil)
  }

  @Test func maxSizesScaleTheFrameDownKeepingItsShape() throws {
    let object = try json(answer(maze + "&maxwidth=400&maxheight=300"))
    // 480x540 scaled by min(400/480, 300/540) = 0.5556: 266x300.
    #expect(object["width"] == .number(266))
    #expect(object["height"] == .number(300))
    let wide = try json(answer(maze + "&maxwidth=240"))
    #expect(wide["width"] == .number(240) && wide["height"] == .number(270))
    let big = try json(answer(maze + "&maxwidth=4000&maxheight=4000"))
    #expect(big["width"] == .number(480), "never larger than the natural frame")
  }

  @Test func xmlAnswerHasTheSameFieldsEscaped() {
    let response = answer(maze + "&format=xml&maxwidth=240")
    #expect(response.status == .ok)
    #expect(response.headers["Content-Type"] == "text/xml; charset=utf-8")
    let text = String(decoding: response.body, as: UTF8.self)
    #expect(
      text.hasPrefix("<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"yes\"?>\n<oembed>"))
    #expect(text.contains("<version>1.0</version>"))
    #expect(text.contains("<type>rich</type>"))
    #expect(text.contains("<width>240</width>"))
    #expect(text.contains("<height>270</height>"))
    #expect(text.contains("<title>Maze ball</title>"))
    #expect(text.contains("<html>&lt;iframe src=&quot;http://h:8080/embed/maze?session=abc&quot;"))
    #expect(!text.contains("<iframe"), "the html field is escaped")
    #expect(text.hasSuffix("</oembed>\n"))
  }

  @Test func everyDemoGetsAFrameOfAtLeast240By180() throws {
    for demo in Demo.all {
      #expect(demo.frame.width >= 240 && demo.frame.height >= 180, "\(demo.name)")
    }
  }

  @Test(arguments: [
    ("url=http%3A%2F%2Fh%2Fdemos%2Fmaze&format=yaml", HTTPStatus.notImplemented),
    ("url=http%3A%2F%2Fh%3A8080%2Fdemos%2Fmaze&maxwidth=0", .badRequest),
    ("url=http%3A%2F%2Fh%3A8080%2Fdemos%2Fmaze&maxwidth=4097", .badRequest),
    ("url=http%3A%2F%2Fh%3A8080%2Fdemos%2Fmaze&maxheight=tall", .badRequest),
    ("url=http%3A%2F%2Fh%2Fdemos%2Fnope", .notFound),
    ("url=ftp%3A%2F%2Fh%2Fdemos%2Fmaze", .notFound),
    ("url=http%3A%2F%2Fh%2Fdemos%2Fmaze%2Fextra", .notFound),
    ("", .notFound),
    ("url=%zz", .badRequest),
  ])
  func badRequestsAreRefusedWithTheRightStatus(query: String, status: HTTPStatus) {
    #expect(answer(query).status == status)
  }

  @Test func refusalsNameTheProblem() {
    let text = String(decoding: answer(maze + "&maxheight=tall").body, as: UTF8.self)
    #expect(text.contains("maxheight must be a whole number from 1 to 4096"))
    let format = String(decoding: answer(maze + "&format=yaml").body, as: UTF8.self)
    #expect(format.contains("format must be json or xml"))
  }

  // Issue 23, item 12: only this server's pages, asked by the host the consumer used, and
  // never a token in the embed.
  @Test(
    arguments: [
      "url=https%3A%2F%2Fevil.example%2Fembed%2Fmaze",
      "url=http%3A%2F%2Fh%3A8080%40evil.example%2Fdemos%2Fmaze",
      "url=http%3A%2F%2Fevil.example%2F%40h%3A8080%2Fdemos%2Fmaze",
      "url=http%3A%2F%2Fh%3A8081%2Fdemos%2Fmaze", "url=http%3A%2F%2Fh%2Fdemos%2Fmaze",
      "url=http%3A%2F%2Fh%3A8080%5C%40evil.example%2Fdemos%2Fmaze",
    ])
  func urlsOfOtherHostsAreNotFound(query: String) {
    let response = answer(query)
    #expect(response.status == .notFound, "\(query)")
    #expect(!String(decoding: response.body, as: UTF8.self).contains("iframe"))
  }

  @Test func aRequestWithoutHostVouchesForNothing() {
    let response = oEmbed.handle(
      Request(method: .get, target: "/oembed?" + maze, headers: HTTPHeaders()))
    #expect(response.status == .notFound)
  }

  @Test func tokensNeverReachTheEmbed() throws {
    let query =
      "url="
      + Application.percentEncode(
        "http://H:8080/demos/paintbrush?session=abc&token=SECRET&size=2&drawToken=X#token=MORE")
    let object = try json(answer(query))
    let html = try #require(object["html"]?.stringValue)
    #expect(
      html.contains("src=\"http://H:8080/embed/paintbrush?session=abc&amp;size=2\""), "\(html)")
    #expect(!html.contains("SECRET") && !html.contains("MORE") && !html.contains("X\""))
  }

  @Test func repeatedQueryKeysAreRefused() {
    #expect(answer(maze + "&maxwidth=300&maxwidth=200").status == .badRequest)
    #expect(answer(maze + "&" + maze).status == .badRequest)
  }
}
