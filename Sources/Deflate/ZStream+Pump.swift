import CZlib

extension ZStream {
  /// Feeds all of `input` through deflate or inflate, appending what comes out to `output`.
  ///
  /// Output grows in bounded steps and is checked against `limit` after every step, so a
  /// decompression bomb is stopped after at most one step past the limit, never inflated whole.
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
    let step = Self.step(inputCount: input.count)
    while true {
      guard output.count <= limit else { throw DeflateError.outputLimitExceeded(limit: limit) }
      let room = limit == .max ? step : min(step, limit - output.count + 1)
      let start = output.count
      output.append(contentsOf: repeatElement(0, count: room))
      let code = output.withUnsafeMutableBufferPointer { buffer in
        stream.pointee.next_out = buffer.baseAddress! + start
        stream.pointee.avail_out = uInt(room)
        return kind == .deflate ? deflate(stream, flush) : inflate(stream, flush)
      }
      let unused = Int(stream.pointee.avail_out)
      output.removeLast(unused)
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

  /// The output step: enough for typical ratios in one call, bounded to keep memory in check.
  private static func step(inputCount: Int) -> Int {
    min(max(inputCount.multipliedReportingOverflow(by: 4).partialValue, 4096), 1 << 20)
  }
}
