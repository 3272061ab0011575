import CZlib

/// Owns one heap-allocated `z_stream` at a fixed address, ended and freed exactly once in deinit.
///
/// NB: zlib keeps pointers into the `z_stream` itself, so it must never move: that is why it
/// lives behind an `UnsafeMutablePointer` owned by a class rather than inside a struct.
final class ZStream {
  enum Kind {
    case deflate
    case inflate
  }

  let pointer: UnsafeMutablePointer<z_stream>
  let kind: Kind
  /// Where zlib writes before the output is appended to the caller's array.
  let outputBuffer: UnsafeMutableBufferPointer<UInt8>

  /// Initialises a stream; `windowBits` follows zlib: negative raw, 8...15 zlib, +16 gzip.
  init(deflateLevel level: Int, windowBits: Int32, memoryLevel: Int) throws {
    kind = .deflate
    pointer = try Self.make { stream in
      deflateInit2_(
        stream, Int32(level), Z_DEFLATED, windowBits, Int32(memoryLevel), Z_DEFAULT_STRATEGY,
        zlibVersion(), Int32(MemoryLayout<z_stream>.size))
    }
    outputBuffer = .allocate(capacity: Self.outputBufferSize)
  }

  init(inflateWindowBits windowBits: Int32) throws {
    kind = .inflate
    pointer = try Self.make { stream in
      inflateInit2_(stream, windowBits, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
    }
    outputBuffer = .allocate(capacity: Self.outputBufferSize)
  }

  /// Bytes zlib may write per call (16 KiB).
  static let outputBufferSize = 16 << 10

  /// Allocates and initialises a stream, freeing it again if zlib refuses, so that a failed
  /// init never leaves a half-built object whose deinit would end a stream zlib never began.
  private static func make(
    _ initialise: (UnsafeMutablePointer<z_stream>) -> Int32
  ) throws -> UnsafeMutablePointer<z_stream> {
    let pointer = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    pointer.initialize(to: z_stream())
    let code = initialise(pointer)
    guard code == Z_OK else {
      pointer.deinitialize(count: 1)
      pointer.deallocate()
      throw DeflateError.zlib(code: code, message: DeflateError.name(of: code))
    }
    return pointer
  }

  /// Forgets all history (the dictionary) but keeps the allocated window.
  func reset() {
    switch kind {
    case .deflate: _ = deflateReset(pointer)
    case .inflate: _ = inflateReset(pointer)
    }
  }

  deinit {
    switch kind {
    case .deflate: _ = deflateEnd(pointer)
    case .inflate: _ = inflateEnd(pointer)
    }
    pointer.deinitialize(count: 1)
    pointer.deallocate()
    outputBuffer.deallocate()
  }
}
