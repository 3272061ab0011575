import HTTP

/// One file under `Public/`, in memory with its precomputed headers and gzip form.
struct StaticFile: Sendable {
  var contentType: String
  var body: [UInt8]
  /// The gzip form, when it is smaller.
  var gzipped: [UInt8]?
  /// Strong validator of `body`; the gzip form's is this with `-gzip` added.
  var etag: String
  var lastModified: Int64
  /// Size and modification time on disk when loaded, to notice changes.
  var stamp: FileStamp
  /// When the file on disk was last compared with `stamp`, in monotonic seconds.
  var checkedAt: Double
  /// Headers shared by every response for this file.
  var headers: HTTPHeaders

  init(
    name: String, body: [UInt8], stamp: FileStamp, checkedAt: Double,
    gzip: @Sendable ([UInt8]) -> [UInt8]?
  ) {
    self.contentType = ContentType.forFile(name)
    self.body = body
    self.stamp = stamp
    self.checkedAt = checkedAt
    self.lastModified = stamp.modified
    self.etag = "\"\(Self.fnv1a(body))\""
    let compressible = ContentType.isCompressible(contentType)
    if compressible && body.count >= 256, let packed = gzip(body), packed.count < body.count {
      gzipped = packed
    }
    var headers = HTTPHeaders()
    headers.add("Content-Type", contentType)
    headers.add("Last-Modified", HTTPDate.format(stamp.modified))
    headers.add(
      "Cache-Control", ContentType.isHTML(contentType) ? "no-cache" : "public, max-age=3600")
    headers.add("Accept-Ranges", "bytes")
    if compressible { headers.add("Vary", "Accept-Encoding") }
    if ContentType.isHTML(contentType) {
      SecurityHeaders.add(to: &headers, framing: .sameOrigin)
    } else {
      headers.add("X-Content-Type-Options", "nosniff")
    }
    self.headers = headers
  }

  /// 64-bit FNV-1a of the bytes, as 16 hex digits.
  static func fnv1a(_ bytes: [UInt8]) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }
}

/// A file's size and modification time, to tell when it changed.
struct FileStamp: Sendable, Equatable {
  var size: Int
  /// Seconds since 1970.
  var modified: Int64
}
