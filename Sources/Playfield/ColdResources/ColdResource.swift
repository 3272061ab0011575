import HTTP

/// An expensive body made on demand (a Mandelbrot tile, a sphere packing): how a request names
/// it, how to describe it, and how to make it. `ColdResourceService` does the rest, the same way
/// for every resource: preconditions and ETag, the cache, the fair queue, the worker and
/// `Retry-After`.
protocol ColdResource: Sendable {
  /// What a request names, once parsed: one cache entry, one ETag.
  associatedtype Key: Hashable & Sendable

  /// How its errors are written.
  var errorStyle: ErrorStyle { get }
  /// What people call it, for the queue's refusals and failures.
  var wording: ColdWording { get }

  /// The key for `request`, whose path after the route's prefix is `path`; a thrown error is
  /// answered as it says (400 naming the field, or 404).
  func key(path: ArraySlice<String>, request: Request) throws(ColdResourceError) -> Key

  /// The body's headers, its strong ETag included (RFC 9110 §8.8.3).
  func headers(for key: Key) -> HTTPHeaders

  /// Makes the body, on a worker thread; `work` records how long its phases took (sent as
  /// `Server-Timing` with the response that waited for it) and says when to stop (throw
  /// `RenderStopped` then). A thrown `ColdResourceError` is answered as it says.
  func compute(_ key: Key, work: inout ColdWork) throws -> [UInt8]

  /// At most how many seconds computing `key` may take, told before it starts (nil: unknown);
  /// more than the resource's deadline is refused at once rather than started. The queue
  /// charges it to the asking client, and work at most `FairQueue.Limits.cheapSeconds` never
  /// waits behind anyone's expensive work.
  func estimatedSeconds(_ key: Key) -> Double?
}

extension ColdResource {
  /// No estimate: every computation is started.
  func estimatedSeconds(_ key: Key) -> Double? { nil }
}

/// What people call a cold resource, in the sentences of its refusals.
struct ColdWording: Sendable {
  /// 429: "you have too many tiles rendering; wait for them before asking for more".
  var tooManyFromClient: String
  /// 503: "the tile renderer is busy; try again shortly".
  var busy: String
  /// 500, before the error: "the tile could not be drawn".
  var failed: String
  /// 503 for work estimated past the deadline: "this tile is too costly to draw".
  var tooCostly = "this is too costly to compute"
}

/// Why a request does not name a body, or why its body cannot be made: its status, message,
/// the field to blame and extra headers (e.g. `WWW-Authenticate`).
struct ColdResourceError: Error, Sendable {
  var status: HTTPStatus
  var message: String
  var field: String?
  var headers: HTTPHeaders

  init(
    _ status: HTTPStatus, _ message: String, field: String? = nil,
    headers: HTTPHeaders = HTTPHeaders()
  ) {
    self.status = status
    self.message = message
    self.field = field
    self.headers = headers
  }

  /// The response for this error, written in `style`.
  func response(_ style: ErrorStyle) -> Response {
    style.response(status, message, field: field, headers: headers)
  }
}
