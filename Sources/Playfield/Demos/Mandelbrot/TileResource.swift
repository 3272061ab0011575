import CPosix
import Deflate
import Dispatch
import Foundation
import HTTP
import Synchronization
import Tiles

/// `/tiles/mandelbrot/Z/X/Y.png` (and `Z/X/Y.counts`, the raw escape counts): tiles of the
/// Mandelbrot explorer, drawn off the event loop by `ColdResourceService`. `iter` is snapped to
/// `IterationSteps`, so nearby requests share a cached tile; a tile never changes for its URL,
/// so it is cached for a year. Counts are gzipped for a client that takes gzip (a PNG already
/// is deflated).
struct TileResource: ColdResource {
  /// One body: a tile in one content coding.
  struct Key: Hashable, Sendable {
    var tile: TileRequest
    /// Gzipped (`.counts` only, for a client whose `Accept-Encoding` takes it).
    var gzip = false
  }

  let renderer: TileRenderer
  /// Draws the tiles the queue admitted as cheap, on `cheapPool`, so that they never wait for
  /// the threads deep renders hold.
  var cheapRenderer = TileRenderer(threads: 1, pool: cheapPool)

  var errorStyle: ErrorStyle { .text }

  var wording: ColdWording {
    ColdWording(
      tooManyFromClient:
        "you have too many tiles rendering (--tile-renders-per-client); wait for them before "
        + "asking for more",
      busy: "the tile renderer is busy (--tile-queue, --tile-wait); try again shortly",
      failed: "the tile could not be drawn",
      tooCostly: "this tile is too costly to draw; ask for fewer iterations (iter)")
  }

  func key(path: ArraySlice<String>, request: Request) throws(ColdResourceError) -> Key {
    var tile: TileRequest
    do {
      if path.count == 3, let file = path.last {
        // NB: the usual Z/X/Y.png, read without joining the path to split it again.
        let first = path.startIndex
        tile = try TileRequest.parse(
          zoom: Substring(path[first]), x: Substring(path[first + 1]), file: Substring(file),
          query: request.query)
      } else {
        // Anything else: the parser says what a tile path is.
        tile = try TileRequest.parse(
          path: Substring(path.joined(separator: "/")), query: request.query)
      }
    } catch {
      throw ColdResourceError(HTTPStatus(error.status), error.message)
    }
    tile.iterations = IterationSteps.snap(tile.iterations)
    // NB: counts shrink to about a tenth (runs of equal counts); a PNG is deflated already.
    let gzip =
      tile.format == .counts && StaticFiles.acceptsGzip(request.headers["Accept-Encoding"])
    return Key(tile: tile, gzip: gzip)
  }

  func headers(for key: Key) -> HTTPHeaders {
    var headers = Self.headers
    headers.set("Content-Type", key.tile.format.mediaType)
    guard key.tile.format == .counts else {
      headers.add("ETag", key.tile.etag)
      return headers
    }
    // RFC 9110 §8.8.3: each content coding is its own representation, with its own validator.
    headers.add("ETag", key.gzip ? String(key.tile.etag.dropLast()) + "-gz\"" : key.tile.etag)
    headers.add("Vary", "Accept-Encoding")
    if key.gzip { headers.add("Content-Encoding", "gzip") }
    return headers
  }

  func compute(_ key: Key, work: inout ColdWork) throws -> [UInt8] {
    let tile = key.tile
    let cancellation = work.cancellation
    let (renderer, pool) = work.cheap ? (cheapRenderer, Self.cheapPool) : (renderer, Self.pool)
    let rendered = try Self.on(pool) {
      try renderer.render(tile, cancellation: cancellation, clock: Self.seconds)
    }
    if let reference = rendered.timings.reference { work.record("reference", seconds: reference) }
    work.record("pixels", seconds: rendered.timings.pixels)
    work.record("encoding", seconds: rendered.timings.encoding)
    guard key.gzip else { return rendered.body }
    return try work.measure("gzip") { try Gzip.compress(rendered.body, level: Self.gzipLevel) }
  }

  /// The render's upper bound (every pixel to the iteration cap), on this renderer's threads.
  func estimatedSeconds(_ key: Key) -> Double? {
    renderer.estimate(for: key.tile).seconds / Double(renderer.threads)
  }

  /// zlib's level for counts: fast, and within a few per cent of the best on their runs.
  static let gzipLevel = 4

  /// The render threads, niced below the game loop and the event loops (as the off-tick steps
  /// are), one per core, shared by every app in the process: a render runs on one and borrows
  /// the idle others for its rows.
  static let pool = RenderPool(
    threads: ProcessInfo.processInfo.activeProcessorCount, name: "playfield-render",
    prepare: { _ = cposix_nice_this_thread(StepScheduler.niceness) })

  /// One more render thread, as niced, for cheap tiles only (the queue's cheap slot): a
  /// cheap tile shares the cores with deep renders instead of waiting for one to end.
  static let cheapPool = RenderPool(
    threads: 1, name: "playfield-render-cheap",
    prepare: { _ = cposix_nice_this_thread(StepScheduler.niceness) })

  /// A renderer whose parallel parts run on `pool`.
  static func renderer() -> TileRenderer {
    TileRenderer(pool: pool)
  }

  /// Runs `body` on a thread of `pool` and waits for it (the caller is a cache worker, of
  /// which a few run at once).
  static func on<T: Sendable>(_ pool: RenderPool, _ body: @escaping @Sendable () throws -> T)
    throws -> T
  {
    let done = DispatchSemaphore(value: 0)
    let result = PoolResult<T>()
    pool.async {
      let outcome = Result { try body() }
      result.value.withLock { $0 = outcome }
      done.signal()
    }
    done.wait()
    return try result.value.withLock { $0! }.get()
  }

  /// Monotonic seconds, for the render's phase timings.
  @Sendable static func seconds() -> Double {
    Double(MonotonicTime.now().nanoseconds) / 1e9
  }

  /// Headers of every tile: tiles never change for a given URL.
  static let headers: HTTPHeaders = [
    "Content-Type": "image/png",
    "Cache-Control": "public, max-age=31536000, immutable",
    "X-Content-Type-Options": "nosniff",
    "Access-Control-Allow-Origin": "*",
  ]
}

/// Where a pool thread leaves its result for the waiting caller.
private final class PoolResult<T: Sendable>: Sendable {
  let value = Mutex<Result<T, any Error>?>(nil)
}
