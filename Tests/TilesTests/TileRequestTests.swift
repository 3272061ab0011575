import Testing

@testable import Tiles

@Suite struct TileRequestTests {
  @Test func defaultsAreTheSeedView() throws {
    let request = try TileRequest.parse(path: "0/0/0.png", query: nil)
    #expect(request.tile == TileCoordinate(zoom: 0, x: 0, y: 0))
    #expect(request.iterations == 200)
    #expect(request.palette == .classic)
    #expect(request.description == "/tiles/mandelbrot/0/0/0.png?iter=200&palette=classic")
    #expect(request.etag == "\"mandelbrot-v1-0-0-0-200-classic\"")
  }

  @Test func optionsAreParsed() throws {
    let request = try TileRequest.parse(path: "7/100/3.png", query: "palette=fire&iter=5000&")
    #expect(request.tile == TileCoordinate(zoom: 7, x: 100, y: 3))
    #expect(request.iterations == 5000)
    #expect(request.palette == .fire)
    let empty = try TileRequest.parse(path: "1/1/1.png", query: "")
    #expect(empty == TileRequest(tile: TileCoordinate(zoom: 1, x: 1, y: 1)!))
    let deepest = try TileRequest.parse(path: "42/4398046511103/0.png", query: "iter=100000")
    #expect(deepest.tile.x == TileIndex((1 << 42) - 1) && deepest.iterations == 100_000)
    #expect(try TileRequest.parse(path: "3/7/7.png", query: "iter=1").iterations == 1)
  }

  @Test func equalRequestsShareEtagsAndDifferentOnesDoNot() throws {
    let a = try TileRequest.parse(path: "3/2/1.png", query: "iter=300")
    let b = try TileRequest.parse(path: "3/2/1.png", query: "iter=300&palette=classic")
    let c = try TileRequest.parse(path: "3/2/1.png", query: "iter=301")
    let d = try TileRequest.parse(path: "3/1/2.png", query: "iter=300")
    #expect(a == b && a.etag == b.etag)
    #expect(Set([a.etag, c.etag, d.etag]).count == 3)
  }

  @Test(arguments: [
    ("0/0/0", "Z/X/Y.png"),
    ("0/0/0.jpg", "Z/X/Y.png"),
    ("0/0.png", "Z/X/Y.png"),
    ("0/0/0/0.png", "Z/X/Y.png"),
    ("/0/0.png", "zoom '' is empty"),
    ("a/0/0.png", "zoom 'a' is not a number"),
    ("-1/0/0.png", "zoom '-1' is negative"),
    ("+1/0/0.png", "zoom '+1' has a sign"),
    ("01/0/0.png", "zoom '01' has a leading zero"),
    ("0/1e3/0.png", "x '1e3' is not a number"),
    ("0/0/0x1.png", "y '0x1' is not a number"),
    ("0/0/ 0.png", "y ' 0' is not a number"),
    ("0/0/%30.png", "y '%30' is not a number"),
    ("0/0/٣.png", "y '?' is not a number"),
    ("0/0/-0.png", "y '-0' is negative"),
    ("0/0/1.5.png", "y '1.5' is not a number"),
    ("5/" + String(repeating: "9", count: 700) + "/0.png", "is far too large"),
    ("5/" + String(repeating: "9", count: 1000) + "/0.png", "…'"),
  ])
  func badPathsAreNotFound(path: String, message: String) {
    let error = #expect(throws: TileRequestError.self) {
      try TileRequest.parse(path: Substring(path), query: nil)
    }
    #expect(error?.kind == .notFound)
    #expect(error?.status == 404)
    #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
  }

  @Test(arguments: [
    ("3/8/0.png", "x '8' is outside 0...7 at zoom 3"),
    ("3/0/8.png", "y '8' is outside 0...7 at zoom 3"),
    ("0/1/0.png", "x '1' is outside 0...0 at zoom 0"),
    ("5/99999999999999999999/0.png", "x '99999999999999999999' is outside 0...31 at zoom 5"),
    ("64/18446744073709551616/0.png", "x '18446744073709551616' is outside 0..<2^64 at zoom 64"),
    ("2001/0/0.png", "zoom 2001 is deeper than level 2000"),
    ("99999/0/0.png", "zoom 99999 is deeper than level 2000"),
  ])
  func coordinatesOutOfRangeAreBadRequests(path: String, message: String) {
    let error = #expect(throws: TileRequestError.self) {
      try TileRequest.parse(path: Substring(path), query: nil)
    }
    #expect(error?.kind == .badRequest)
    #expect(error?.status == 400)
    #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
  }

  @Test func deepTilesTakeNumbersOfAnySize() throws {
    let x = "1" + String(repeating: "0", count: 300)
    let y = String(repeating: "7", count: 301)
    let request = try TileRequest.parse(path: Substring("1100/\(x)/\(y).png"), query: nil)
    #expect(request.tile.zoom == 1100)
    #expect(request.tile.x.description == x && request.tile.y.description == y)
    #expect(!request.tile.isShallow)
    #expect(request.description == "/tiles/mandelbrot/1100/\(x)/\(y).png?iter=200&palette=classic")
    let last = try TileRequest.parse(path: "64/18446744073709551615/0.png", query: nil)
    #expect(last.tile.x.bitWidth == 64)
    #expect(try TileRequest.parse(path: "43/0/0.png", query: nil).tile.zoom == 43)
  }

  @Test(arguments: [
    ("iter=0", "iter must be a whole number from 1 to 100000, not '0'"),
    ("iter=100001", "not '100001'"),
    ("iter=-5", "not '-5'"),
    ("iter=+5", "not '+5'"),
    ("iter=5.0", "not '5.0'"),
    ("iter=", "not ''"),
    ("iter=abc", "not 'abc'"),
    ("iter=99999999999999999999999", "not '99999999999999999999999'"),
    ("iter", "query parameter 'iter' has no value"),
    ("iter=5&iter=6", "'iter' is given twice"),
    ("palette=rainbow", "unknown palette 'rainbow'; known: classic, ultra, fire, ocean, gray"),
    ("palette=Classic", "unknown palette 'Classic'"),
    ("palette=", "unknown palette ''"),
    ("zoom=3", "unknown query parameter 'zoom'; known: iter, palette, format"),
    ("=5", "unknown query parameter ''"),
    ("iter=5&palette=fire&palette=fire", "'palette' is given twice"),
    ("format=jpeg", "unknown format 'jpeg'; known: png, counts"),
    ("format=", "unknown format ''"),
    ("format=COUNTS", "unknown format 'COUNTS'"),
    ("format=counts&format=counts", "'format' is given twice"),
    ("format=counts&palette=fire", "counts have no palette"),
    ("palette=fire&format=counts", "counts have no palette"),
  ])
  func badQueriesAreBadRequests(query: String, message: String) {
    let error = #expect(throws: TileRequestError.self) {
      try TileRequest.parse(path: "1/0/1.png", query: Substring(query))
    }
    #expect(error?.kind == .badRequest)
    #expect(error?.status == 400)
    #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
  }

  @Test func formatCountsIsTheCountsPath() throws {
    let alias = try TileRequest.parse(path: "5/3/9.png", query: "iter=400&format=counts")
    let path = try TileRequest.parse(path: "5/3/9.counts", query: "iter=400")
    #expect(alias == path && alias.etag == path.etag && alias.format == .counts)
    #expect(alias.description == "/tiles/mandelbrot/5/3/9.counts?iter=400")
    let png = try TileRequest.parse(path: "5/3/9.png", query: "format=png&palette=fire")
    #expect(png == (try TileRequest.parse(path: "5/3/9.png", query: "palette=fire")))
    let counts = try TileRequest.parse(path: "5/3/9.counts", query: "format=counts")
    #expect(counts == TileRequest(tile: path.tile, format: .counts))
    let contradiction = #expect(throws: TileRequestError.self) {
      try TileRequest.parse(path: "5/3/9.counts", query: "format=png")
    }
    #expect(contradiction?.status == 400)
    #expect(contradiction?.message.contains("contradicts the path's .counts") == true)
  }

  @Test func pathErrorsWinOverQueryErrors() {
    let error = #expect(throws: TileRequestError.self) {
      try TileRequest.parse(path: "9/09/0.png", query: "iter=0")
    }
    #expect(error?.kind == .notFound)
  }

  @Test func quotedInputIsPrintableAndShort() {
    let quoted = TileRequestError.quote("\u{1b}[31m\r\n" + String(repeating: "x", count: 100))
    #expect(quoted.allSatisfy { $0.isASCII && !$0.isNewline && $0 != "\u{1b}" || $0 == "…" })
    #expect(quoted.count <= 36)
  }
}
