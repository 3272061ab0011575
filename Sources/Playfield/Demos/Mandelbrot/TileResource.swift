import CPosix
import Dispatch
import Foundation
import HTTP
import Synchronization
import Tiles

/// `/tiles/mandelbrot/Z/X/Y.png` (and `Z/X/Y.counts`, the raw escape counts): tiles of the
/// Mandelbrot explorer, drawn off the event loop by `ColdResourceService`. `iter` is snapped to `IterationSteps`, so nearby requests share a
/// cached tile; a tile never changes for its URL, so it is cached for a year.
struct TileResource: ColdResource {
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

  func key(path: ArraySlice<String>, request: Request) throws(ColdResourceError) -> TileRequest {
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
    return tile
  }

  func headers(for tile: TileRequest) -> HTTPHeaders {
    var headers = Self.headers
    headers.set("Content-Type", tile.format.mediaType)
    headers.add("ETag", tile.etag)
    return headers
  }

  func compute(_ tile: TileRequest, work: inout ColdWork) throws -> [UInt8] {
    let cancellation = work.cancellation
    let (renderer, pool) = work.cheap ? (cheapRenderer, Self.cheapPool) : (renderer, Self.pool)
    let rendered = try Self.on(pool) {
      try renderer.render(tile, cancellation: cancellation, clock: Self.seconds)
    }
    if let reference = rendered.timings.reference { work.record("reference", seconds: reference) }
    work.record("pixels", seconds: rendered.timings.pixels)
    work.record("encoding", seconds: rendered.timings.encoding)
    return rendered.body
  }

  /// The render's upper bound (every pixel to the iteration cap), on this renderer's threads.
  func estimatedSeconds(_ tile: TileRequest) -> Double? {
    renderer.estimate(for: tile).seconds / Double(renderer.threads)
  }

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
