import CZlib

extension ZStream {
  /// Feeds all of `input` through deflate or inflate, appending what comes out to `output`.
  ///
  /// zlib writes into `outputBuffer` in steps of at most its size, and each step is copied out
  /// and checked against `limit`, so a decompression bomb stops one byte past the limit, never
  /// inflated whole; small inputs (a byte at a time from a slow sender) cost little.
  /// Returns true when deflate finished the stream (`Z_FINISH`) or inflate reached its end;
  /// input after the end is left unread.
  @discardableResult
  func pump(
    _ input: UnsafeRawBufferPointer, into output: inout [UInt8], flush: Int32 = Z_NO_FLUSH,
    limit: Int = .max
  ) throws -> Bool {
    let stream = pointer
    stream.pointee.next_in = UnsafeMutablePointer(
      mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
    stream.pointee.avail_in = uInt(input.count)
    defer {
      stream.pointee.next_in = nil
      stream.pointee.avail_in = 0
      stream.pointee.next_out = nil
      stream.pointee.avail_out = 0
    }
    let buffer = outputBuffer
    while true {
      guard output.count <= limit else { throw DeflateError.outputLimitExceeded(limit: limit) }
      let room = min(buffer.count, limit == .max ? .max : limit - output.count + 1)
      stream.pointee.next_out = buffer.baseAddress
      stream.pointee.avail_out = uInt(room)
      let code = kind == .deflate ? deflate(stream, flush) : inflate(stream, flush)
      let unused = Int(stream.pointee.avail_out)
      output.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<(room - unused)]))
      guard output.count <= limit else { throw DeflateError.outputLimitExceeded(limit: limit) }
      let drained = stream.pointee.avail_in == 0 && unused > 0
      switch code {
      case Z_STREAM_END:
        return true
      case Z_OK:
        if drained && flush != Z_FINISH { return false }
      case Z_BUF_ERROR:
        // NB: no progress was possible: the input is used up and nothing is pending.
        if flush == Z_FINISH { try DeflateError.check(code, stream) }
        return false
      default:
        try DeflateError.check(code, stream)
      }
    }
  }
}
