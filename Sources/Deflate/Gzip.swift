import CZlib

/// Whole-buffer gzip (RFC 1952), for HTTP `Content-Encoding: gzip`.
public enum Gzip {
  /// Compresses `data` into one gzip member.
  /// - Parameter level: zlib compression level, 0 (store) ... 9 (smallest); 6 is the default.
  public static func compress(_ data: [UInt8], level: Int = 6) throws -> [UInt8] {
    let deflater = try Deflater(gzipLevel: level)
    var output: [UInt8] = []
    output.reserveCapacity(data.count / 2 + 64)
    try data.withUnsafeBytes { try deflater.finish($0, into: &output) }
    return output
  }

  /// Decompresses one gzip member, refusing to produce more than `limit` bytes.
  public static func decompress(_ data: [UInt8], limit: Int = 64 << 20) throws -> [UInt8] {
    let inflater = try Inflater(gzip: ())
    var output: [UInt8] = []
    let ended = try data.withUnsafeBytes {
      try inflater.inflateStream($0, into: &output, limit: limit)
    }
    guard ended else {
      throw DeflateError.zlib(code: Z_BUF_ERROR, message: "truncated gzip stream")
    }
    return output
  }
}
