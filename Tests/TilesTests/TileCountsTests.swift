import Testing

@testable import Tiles

/// `Z/X/Y.counts`: the escape counts as bytes, their request, ETag and timings.
@Suite struct TileCountsTests {
  @Test func countsArePathsOfTheirOwn() throws {
    let counts = try TileRequest.parse(path: "3/2/1.counts", query: "iter=300")
    let png = try TileRequest.parse(path: "3/2/1.png", query: "iter=300")
    #expect(counts.format == .counts && png.format == .png)
    #expect(counts.tile == png.tile && counts.iterations == 300)
    #expect(counts != png && counts.etag != png.etag)
    #expect(counts.etag == "\"mandelbrot-counts-v1-3-2-1-300\"")
    #expect(counts.description == "/tiles/mandelbrot/3/2/1.counts?iter=300")
    #expect(TileFormat.counts.mediaType == "application/octet-stream")
    let again = try TileRequest.parse(zoom: "3", x: "2", file: "1.counts", query: "iter=300")
    #expect(again == counts)
  }

  @Test(arguments: [
    ("3/2/1.counts", "palette=fire", 400, "counts have no palette"),
    ("3/2/1.count", nil, 404, "Z/X/Y.png or Z/X/Y.counts"),
    ("3/2/1.counts.png", nil, 404, "y '1.counts' is not a number"),
    ("3/2/.counts", nil, 404, "y '' is empty"),
    ("3/9/1.counts", nil, 400, "x '9' is outside 0...7"),
    ("3/2/1.counts", "iter=0", 400, "iter must be a whole number"),
  ])
  func badCountRequestsAreRefused(path: String, query: String?, status: Int, words: String) {
    let error = #expect(throws: TileRequestError.self) {
      try TileRequest.parse(path: Substring(path), query: query.map { Substring($0) })
    }
    #expect(error?.status == status)
    #expect(error?.message.contains(words) == true, "\(error?.message ?? "")")
  }

  @Test func theBodyHoldsEveryCountLittleEndian() throws {
    let renderer = TileRenderer(threads: 2)
    for tile in [TileCoordinate(zoom: 5, x: 14, y: 11)!, DeepTileSupport.tileAtI(zoom: 334)] {
      let request = TileRequest(tile: tile, iterations: 500, format: .counts)
      let rendered = try renderer.render(request, clock: { 0 })
      let field = renderer.field(for: request)
      #expect(rendered.body.count == 16 + 4 * 256 * 256)
      #expect(Array(rendered.body[0..<4]) == Array("PFEC".utf8))
      #expect(Array(rendered.body[4..<16]) == [0, 1, 0, 0, 0, 1, 0, 0, 0xf4, 1, 0, 0])
      let decoded = try #require(EscapeField(countsBody: rendered.body))
      #expect(decoded.counts == field.counts && decoded.maxIterations == 500)
      let last = field.counts[256 * 256 - 1]
      let bytes = rendered.body.suffix(4)
      #expect(Array(bytes) == [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: last >> $0) })
    }
    #expect(EscapeField(countsBody: Array("PFEC".utf8) + [1, 0, 0, 0]) == nil)
    #expect(EscapeField(countsBody: [UInt8](repeating: 0, count: 20)) == nil)
  }

  /// The renderer times each phase by the caller's clock: here a clock that moves one second
  /// per reading, so each phase is the number of readings it spans.
  @Test func timingsFollowTheCallersClock() throws {
    let renderer = TileRenderer(threads: 2)
    let deep = TileRequest(tile: DeepTileSupport.tileAtI(zoom: 334), iterations: 500)
    let clock = SteppingClock(step: 1)
    let timings = try renderer.render(deep, clock: clock.reading).timings
    #expect(timings == RenderTimings(reference: 1, pixels: 1, encoding: 1))
    #expect(
      timings.serverTiming == "reference;dur=1000.000, pixels;dur=1000.000, encoding;dur=1000.000")
    let shallow = TileRequest(tile: TileCoordinate(zoom: 2, x: 1, y: 1)!, format: .counts)
    let plain = try renderer.render(shallow, clock: SteppingClock(step: 0.25).reading).timings
    #expect(plain.reference == nil && plain.pixels == 0.25 && plain.encoding == 0.25)
    #expect(plain.serverTiming == "pixels;dur=250.000, encoding;dur=250.000")
  }

  @Test func estimatesBoundTheWork() {
    let renderer = TileRenderer(threads: 2)
    let shallow = renderer.estimate(
      for: TileRequest(tile: TileCoordinate(zoom: 9, x: 100, y: 100)!, iterations: 1000))
    #expect(shallow.kernel == .plain && shallow.pixelUpdates == 65_536_000)
    #expect(shallow.referenceUpdates == 0)
    let request = TileRequest(tile: DeepTileSupport.tileAtI(zoom: 998), iterations: 2000)
    let cold = renderer.estimate(for: request)
    #expect(cold.kernel == .perturbation && cold.referenceUpdates == 8000)
    #expect(cold.referenceLimbs == 18 && cold.seconds > shallow.seconds)
    _ = renderer.field(for: request)
    let warm = renderer.estimate(for: request)
    #expect(warm.referenceUpdates == 0 && warm.seconds < cold.seconds)
    let wide = renderer.estimate(
      for: TileRequest(tile: DeepTileSupport.tileAtI(zoom: 60), iterations: 100_000))
    #expect(wide.seconds > 10, "a tile that could iterate every pixel to 100,000")
  }
}
