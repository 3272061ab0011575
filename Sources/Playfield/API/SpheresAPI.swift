import Apollonian
import Deflate
import Dispatch
import HTTP
import Server
import Synchronization
import Tiles

/// `GET /api/spheres/RADIUS/LEVEL[.bin|.json][?surface=1]`: the seed's Apollonian packing
/// service (docs/apollonian.md).
///
/// Each level is computed once (`PackingStore`); encoded bodies, one per radius, level, shell,
/// form and coding, live in a byte-bounded LRU cache whose concurrent requests for one body
/// wait for a single computation. Bodies never change for a URL, so they carry strong ETags.
///
/// Cached bodies are answered at once; a cold one (1.5 s of CPU for level 10's gzipped JSON)
/// goes through a `RenderQueue` like a tile: one at a time by default, each client in turn, a
/// few per client, bounded, with a deadline.
final class SpheresAPI: Sendable {
  /// One encoded body.
  struct Key: Hashable, Sendable {
    var request: SphereRequest
    var gzip: Bool
  }

  /// A cold body waiting for its turn: which, for whom, and where the answer goes.
  struct Cold: Sendable {
    var key: Key
    var client: ClientKey
    var headers: HTTPHeaders
    var pending: PendingResponse
  }

  let packings = PackingStore()
  let bodies: TileCache<Key>
  /// How long each body just computed took, for the `Server-Timing` of its first response.
  private let timings = Mutex<[Key: String]>([:])
  private let queue: Mutex<RenderQueue<Cold>>
  /// Monotonic seconds, for the queue's deadline.
  private let clock: @Sendable () -> Double
  /// Makes a body and its `Server-Timing` (`encode` unless a test says otherwise).
  private let encoder: @Sendable (Key, PackingStore) throws -> ([UInt8], String)

  /// The queue's bounds unless told otherwise: one computation at a time (each may take a core
  /// for seconds), 64 waiting, 4 per client (16 per address), 30 s of waiting.
  static let defaultLimits = RenderQueue<Cold>.Limits(
    running: 1, waiting: 64, perClient: 4, perAddress: 16, deadline: 30)

  /// - Parameter cacheBytes: most bytes of encoded bodies kept (the packings come on top,
  ///   at most about 23 MB).
  init(
    cacheBytes: Int, limits: RenderQueue<Cold>.Limits = defaultLimits,
    clock: @escaping @Sendable () -> Double = { Double(MonotonicTime.now().nanoseconds) / 1e9 },
    encoder: @escaping @Sendable (Key, PackingStore) throws -> ([UInt8], String) = encode
  ) {
    bodies = TileCache(
      capacity: cacheBytes, maxConcurrentComputations: limits.running,
      queue: DispatchQueue(label: "playfield.spheres", qos: .userInitiated, attributes: .concurrent)
    )
    queue = Mutex(RenderQueue(limits: limits))
    self.clock = clock
    self.encoder = encoder
  }

  func handle(_ request: Request, radius: String, level: String, client: ClientKey) -> Reply {
    guard request.method == .get || request.method == .head else {
      var error = APIError(.methodNotAllowed, "spheres accept GET and HEAD")
      error.headers = ["Allow": "GET, HEAD"]
      return .response(error.response)
    }
    let query: QueryParameters
    do {
      query = try QueryParameters(request.query)
    } catch {
      return .response(error.response)
    }
    var spheres: SphereRequest
    do {
      spheres = try SphereRequest.parse(
        radius: Substring(radius), level: Substring(level), query: query.pairs)
    } catch {
      return .response(APIError(.badRequest, error.message, field: error.field).response)
    }
    if !spheres.formatInPath, Self.prefersBinary(request.headers["Accept"]) {
      spheres.format = .binary
    }
    // `.bin` and `Accept` name the same body: one cache entry, one ETag.
    spheres.formatInPath = false
    // NB: both forms gain from gzip (JSON shrinks to a third, float32 data to two thirds).
    let gzip = StaticFiles.acceptsGzip(request.headers["Accept-Encoding"])
    let key = Key(request: spheres, gzip: gzip)
    let headers = Self.headers(for: key)
    if let answer = Preconditions.answer(request, etag: Self.etag(for: key), headers: headers) {
      return .response(answer)
    }
    if let body = bodies.cachedValue(for: key) {
      return .response(Response(status: .ok, headers: headers, body: body))
    }
    let cold = Cold(key: key, client: client, headers: headers, pending: PendingResponse())
    switch queue.withLock({ $0.submit(cold, client: client, now: clock()) }) {
    case .start(let cold):
      compute(cold)
    case .wait:
      break
    case .refuse(_, let refusal):
      return .response(Self.refused(refusal))
    }
    return .later(cold.pending)
  }

  /// Computes (or joins a computation of) the body, answers, and hands the freed slot on.
  private func compute(_ cold: Cold) {
    let key = cold.key
    bodies.fetch(
      key,
      compute: {
        let (body, timing) = try self.encoder(key, self.packings)
        self.timings.withLock { $0[key] = timing }
        return body
      },
      completion: { [self] result in
        let response: Response
        switch result {
        case .success(let body):
          var headers = cold.headers
          if let timing = timings.withLock({ $0.removeValue(forKey: key) }) {
            headers.add("Server-Timing", timing)
          }
          response = Response(status: .ok, headers: headers, body: body)
        case .failure(let error):
          response =
            APIError(.internalServerError, "the spheres could not be encoded: \(error)").response
        }
        // NB: the slot is handed on before the answer goes, so a client that has its answer
        // never finds its own computation still counted.
        let (start, expired) = queue.withLock { $0.finish(client: cold.client, now: clock()) }
        cold.pending.succeed(response)
        for (late, refusal) in expired { late.pending.succeed(Self.refused(refusal)) }
        for next in start { compute(next) }
      })
  }

  /// 429 for a client over its share, 503 when the queue is full or the wait too long, with
  /// `Retry-After` (RFC 9110 §10.2.3).
  static func refused(_ refusal: RenderQueue<Cold>.Refusal) -> Response {
    var error = APIError(
      refusal.tooManyFromClient ? .tooManyRequests : .serviceUnavailable,
      refusal.tooManyFromClient
        ? "you have too many sphere packings being computed; wait for them before asking for more"
        : "the sphere packings are busy; try again shortly")
    error.headers = ["Retry-After": String(refusal.retryAfter), "Cache-Control": "no-store"]
    return error.response
  }

  /// The body for `key` and how long its steps took, as a W3C `Server-Timing` value; runs on
  /// the cache's queue.
  @Sendable static func encode(_ key: Key, packings: PackingStore) throws -> ([UInt8], String) {
    let request = key.request
    let clock = ContinuousClock()
    let start = clock.now
    let spheres = packings.packing(request.level).selected(surface: request.surface)
    let packed = clock.now
    var body =
      switch request.format {
      case .json: ApollonianPacking.json(spheres, radius: request.radius)
      case .binary: ApollonianPacking.binary(spheres, radius: request.radius)
      }
    let encoded = clock.now
    if key.gzip { body = try Gzip.compress(body, level: gzipLevel) }
    let zipped = clock.now
    func ms(_ duration: Duration) -> String {
      let value =
        Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1e3
      return String(Double(Int(value * 1000)) / 1000)
    }
    var timing = "packing;dur=\(ms(packed - start)), encode;dur=\(ms(encoded - packed))"
    if key.gzip { timing += ", gzip;dur=\(ms(zipped - encoded))" }
    return (body, timing)
  }

  /// Whether `Accept` names the binary type before (or instead of) JSON, with q > 0.
  static func prefersBinary(_ accept: String?) -> Bool {
    guard let accept else { return false }
    var binary = 0.0
    var json = -1.0
    for element in accept.split(separator: ",") {
      let parts = element.split(separator: ";")
      guard let type = parts.first?.trimmingSpaces().lowercased() else { continue }
      var quality = 1.0
      for parameter in parts.dropFirst() {
        let pair = parameter.trimmingSpaces().lowercased()
        if pair.hasPrefix("q="), let value = Double(pair.dropFirst(2)) { quality = value }
      }
      if type == SphereBinary.mediaType { binary = quality }
      if type == "application/json" { json = quality }
    }
    return binary > 0 && binary > json
  }

  /// A strong validator per representation (RFC 9110 §8.8.3): every input of the body is in it.
  static func etag(for key: Key) -> String {
    let request = key.request
    let radius = String(request.radius.bitPattern, radix: 16)
    return "\"spheres-\(version)-\(request.level)-\(radius)-\(request.surface ? "s" : "a")-"
      + "\(request.format == .json ? "json" : "bin")\(key.gzip ? "-gz" : "")\""
  }

  static func headers(for key: Key) -> HTTPHeaders {
    var headers: HTTPHeaders = [
      "Content-Type": key.request.format == .json ? "application/json" : SphereBinary.mediaType,
      "Cache-Control": "public, max-age=86400",
      "Vary": "Accept, Accept-Encoding",
      "X-Content-Type-Options": "nosniff",
      "Access-Control-Allow-Origin": "*",
      "ETag": etag(for: key),
    ]
    if key.gzip { headers.add("Content-Encoding", "gzip") }
    return headers
  }

  /// zlib's level 4: for level 10's 41 MB of JSON, 5 % larger than level 6 and much faster.
  static let gzipLevel = 4

  /// Bumped when the packing or an encoding changes, so old ETags stop matching.
  static let version = 1
}
