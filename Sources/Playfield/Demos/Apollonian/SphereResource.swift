import Apollonian
import Deflate
import HTTP

/// `GET /api/spheres/RADIUS/LEVEL[.bin|.json][?surface=1]`: the seed's Apollonian packing
/// service (docs/apollonian.md), served by `ColdResourceService`.
///
/// Each level is computed once (`PackingStore`); encoded bodies, one per radius, level, shell,
/// form and coding, are the cache's entries. Bodies never change for a URL, so they carry
/// strong ETags. A cold body (1.5 s of CPU for level 10's gzipped JSON) waits its turn like a
/// tile, and its first response says in `Server-Timing` how long each phase took.
struct SphereResource: ColdResource {
  /// One encoded body.
  struct Key: Hashable, Sendable {
    var request: SphereRequest
    var gzip: Bool
  }

  /// Makes a body (`encode`, unless a test says otherwise).
  typealias Encoder = @Sendable (Key, PackingStore, inout ColdWork) throws -> [UInt8]

  let packings = PackingStore()
  let encoder: Encoder

  init(encoder: @escaping Encoder = encode) {
    self.encoder = encoder
  }

  var errorStyle: ErrorStyle { .json }

  var wording: ColdWording {
    ColdWording(
      tooManyFromClient:
        "you have too many sphere packings being computed (--sphere-computations-per-client); "
        + "wait for them before asking for more",
      busy: "the sphere packings are busy (--sphere-queue, --sphere-wait); try again shortly",
      failed: "the spheres could not be encoded")
  }

  func key(path: ArraySlice<String>, request: Request) throws(ColdResourceError) -> Key {
    let query: QueryParameters
    do {
      query = try QueryParameters(request.query)
    } catch {
      throw ColdResourceError(error.status, error.message)
    }
    var spheres: SphereRequest
    do {
      spheres = try SphereRequest.parse(
        radius: Substring(path[path.startIndex]), level: Substring(path[path.startIndex + 1]),
        query: query.pairs)
    } catch {
      throw ColdResourceError(.badRequest, error.message, field: error.field)
    }
    if !spheres.formatInPath, Self.prefersBinary(request.headers["Accept"]) {
      spheres.format = .binary
    }
    // `.bin` and `Accept` name the same body: one cache entry, one ETag.
    spheres.formatInPath = false
    // NB: both forms gain from gzip (JSON shrinks to a third, float32 data to two thirds).
    return Key(request: spheres, gzip: StaticFiles.acceptsGzip(request.headers["Accept-Encoding"]))
  }

  func headers(for key: Key) -> HTTPHeaders {
    var headers: HTTPHeaders = [
      "Content-Type": key.request.format == .json ? "application/json" : SphereBinary.mediaType,
      "Cache-Control": "public, max-age=86400",
      "Vary": "Accept, Accept-Encoding",
      "X-Content-Type-Options": "nosniff",
      "Access-Control-Allow-Origin": "*",
      "ETag": Self.etag(for: key),
    ]
    if key.gzip { headers.add("Content-Encoding", "gzip") }
    return headers
  }

  func compute(_ key: Key, work: inout ColdWork) throws -> [UInt8] {
    try encoder(key, packings, &work)
  }

  /// At most the seconds of one core the body takes: its share of level 10's (about 1.5 s
  /// for gzipped JSON, rounded up to 2), by its count of spheres; the queue charges it to the
  /// asker, and bodies of level 8 and below count as cheap.
  func estimatedSeconds(_ key: Key) -> Double? {
    let level = min(max(key.request.level, 0), Self.spheresPerLevel.count - 1)
    return 2.0 * Double(Self.spheresPerLevel[level]) / Double(Self.spheresPerLevel.last!)
  }

  /// Spheres of the whole packing at each level (docs/apollonian.md).
  static let spheresPerLevel = [5, 10, 30, 90, 300, 990, 3_330, 11_160, 37_530, 125_178, 383_892]

  /// The body for `key`, timing its phases (packing, encode, gzip) into `work`.
  @Sendable static func encode(_ key: Key, packings: PackingStore, work: inout ColdWork) throws
    -> [UInt8]
  {
    let request = key.request
    let spheres = work.measure("packing") {
      packings.packing(request.level).selected(surface: request.surface)
    }
    let body = work.measure("encode") {
      switch request.format {
      case .json: ApollonianPacking.json(spheres, radius: request.radius)
      case .binary: ApollonianPacking.binary(spheres, radius: request.radius)
      }
    }
    guard key.gzip else { return body }
    return try work.measure("gzip") { try Gzip.compress(body, level: gzipLevel) }
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

  /// zlib's level 4: for level 10's 41 MB of JSON, 5 % larger than level 6 and much faster.
  static let gzipLevel = 4

  /// Bumped when the packing or an encoding changes, so old ETags stop matching.
  static let version = 1
}
