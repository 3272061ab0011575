import HTTP
import JSON
import Testing

@testable import Playfield

/// Issue 23, items 12 and 13: every answer of a cross-origin route carries the grant, errors
/// and answers finished on another thread included, and exposes `Retry-After`.
@Suite struct CrossOriginTests {
  static func expectGrant(_ response: Response, _ what: String) {
    #expect(response.headers["Access-Control-Allow-Origin"] == "*", "\(what)")
    #expect(
      response.headers["Access-Control-Expose-Headers"]?.contains("Retry-After") == true, "\(what)")
  }

  @Test func tileAnswersAndErrorsCarryTheGrant() throws {
    let app = try TestApplication(database: false)
    defer { app.shutdown() }
    let tile = app.request(.get, "/tiles/mandelbrot/0/0/0.png")
    #expect(tile.status == .ok)
    Self.expectGrant(tile, "a rendered tile")
    for target in [
      "/tiles/mandelbrot/0/0/0.png?iter=100&iter=200", "/tiles/mandelbrot/0/5/0.png",
      "/tiles/mandelbrot/nope",
    ] {
      let response = app.request(.get, target)
      #expect(response.status.code / 100 == 4, "\(target): \(response.status)")
      Self.expectGrant(response, target)
    }
    Self.expectGrant(app.request(.post, "/tiles/mandelbrot/0/0/0.png"), "405")
    let preflight = app.request(
      .options, "/oembed", headers: ["Origin": "https://other.example"])
    Self.expectGrant(preflight, "a preflight")
  }

  @Test func oEmbedAnswersCarryTheGrant() throws {
    let app = try TestApplication(database: false)
    defer { app.shutdown() }
    Self.expectGrant(
      app.request(.get, "/oembed?url=http%3A%2F%2Fh%2Fdemos%2Fmaze", headers: ["Host": "h"]), "200")
    Self.expectGrant(
      app.request(
        .get, "/oembed?url=https%3A%2F%2Fevil.example%2Fdemos%2Fmaze", headers: ["Host": "h"]),
      "404")
  }

  @Test func tokensTravelAfterTheHashAndPagesSendNoPathInReferer() throws {
    let app = try TestApplication(database: false)
    defer { app.shutdown() }
    let created = try app.json(.post, "/api/sessions", ["kind": "paintbrush"])
    let id = try #require(created["id"]?.stringValue)
    let token = try #require(created["token"]?.stringValue)
    #expect(
      created["urls"]?["control"] == .string("/demos/paintbrush?session=\(id)#token=\(token)"))
    let draw = try #require(created["urls"]?["draw"]?.stringValue)
    #expect(draw.hasPrefix("/demos/paintbrush?session=\(id)#token=") && !draw.contains(token))
    let page = app.request(.get, "/demos/paintbrush")
    #expect(page.headers["Referrer-Policy"] == "strict-origin")
  }
}
