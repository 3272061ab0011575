import HTTP

/// One file under `Public/`, in memory with its gzip form and its responses made up front, so
/// that serving it copies bytes rather than building headers.
final class StaticFile: Sendable {
  let contentType: String
  let body: [UInt8]
  /// The gzip form, when it is smaller.
  let gzipped: [UInt8]?
  /// Strong validator of `body`.
  let etag: String
  /// Strong validator of `gzipped` (RFC 9110 §8.8.3: each content coding has its own).
  let gzipETag: String
  let lastModified: Int64
  /// Size and modification time on disk when loaded, to notice changes.
  let stamp: FileStamp
  /// The whole file, 200, with its headers serialized.
  let identity: Response
  /// The gzip form, 200, with its headers serialized.
  let compressed: Response?

  init(name: String, body: [UInt8], stamp: FileStamp, gzip: @Sendable ([UInt8]) -> [UInt8]?) {
    let contentType = ContentType.forFile(name)
    self.contentType = contentType
    self.body = body
    self.stamp = stamp
    self.lastModified = stamp.modified
    let hash = Self.fnv1a(body)
    self.etag = "\"\(hash)\""
    self.gzipETag = "\"\(hash)-gzip\""
    let compressible = ContentType.isCompressible(contentType)
    var gzipped: [UInt8]?
    if compressible && body.count >= 256, let packed = gzip(body), packed.count < body.count {
      gzipped = packed
    }
    self.gzipped = gzipped

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
    var identity = Response(status: .ok, headers: headers, body: body)
    identity.headers.add("ETag", etag)
    identity.prepare()
    self.identity = identity
    if let gzipped {
      var compressed = Response(status: .ok, headers: headers, body: gzipped)
      compressed.headers.add("ETag", gzipETag)
      compressed.headers.add("Content-Encoding", "gzip")
      compressed.prepare()
      self.compressed = compressed
    } else {
      self.compressed = nil
    }
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
