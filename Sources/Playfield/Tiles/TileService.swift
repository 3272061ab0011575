import HTTP
import Server
import Tiles

/// `/tiles/mandelbrot/Z/X/Y.png`: PNG tiles rendered off the event loop, kept in a bounded
/// LRU cache, with concurrent requests for one cold tile computed once.
final class TileService: Sendable {
  let renderer: TileRenderer
  let cache: TileCache<TileRequest>

  /// - Parameter cacheBytes: most bytes of PNG kept in memory.
  init(cacheBytes: Int, renderer: TileRenderer = TileRenderer()) {
    self.renderer = renderer
    self.cache = TileCache(capacity: cacheBytes)
  }

  func handle(_ request: Request, zoom: String, x: String, file: String) -> Reply {
    guard request.method == .get || request.method == .head else {
      return .response(
        HTTPError(.methodNotAllowed, "tiles accept GET and HEAD", headers: ["Allow": "GET, HEAD"])
          .response)
    }
    guard file.hasSuffix(".png") else {
      return .response(HTTPError(.notFound, "a tile is Z/X/Y.png").response)
    }
    let tile: TileRequest
    do {
      tile = try TileRequest.parse(
        zoom: Substring(zoom), x: Substring(x), y: Substring(file.dropLast(4)),
        query: request.query)
    } catch {
      return .response(HTTPError(HTTPStatus(error.status), error.message).response)
    }
    var headers = Self.headers
    headers.add("ETag", tile.etag)
    switch Preconditions.evaluate(request, etag: tile.etag, lastModified: nil, now: 0) {
    case .notModified:
      return .response(Response(status: .notModified, headers: headers))
    case .failed(let condition):
      return .response(HTTPError(.preconditionFailed, "\(condition) does not hold").response)
    case .proceed:
      break
    }
    if let png = cache.cachedValue(for: tile) {
      return .response(Response(status: .ok, headers: headers, body: png))
    }
    let pending = PendingResponse()
    let renderer = self.renderer
    cache.fetch(
      tile, compute: { try renderer.png(for: tile) },
      completion: { [headers] result in
        switch result {
        case .success(let png):
          pending.succeed(Response(status: .ok, headers: headers, body: png))
        case .failure(let error):
          pending.succeed(
            HTTPError(.internalServerError, "the tile could not be drawn: \(error)").response)
        }
      })
    return .later(pending)
  }

  /// Headers of every tile: tiles never change for a given URL.
  static let headers: HTTPHeaders = [
    "Content-Type": "image/png",
    "Cache-Control": "public, max-age=31536000, immutable",
    "X-Content-Type-Options": "nosniff",
    "Access-Control-Allow-Origin": "*",
  ]
}
