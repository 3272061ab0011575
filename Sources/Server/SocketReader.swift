#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The read loop both channels share: reads what a non-blocking socket has ready into the
/// loop's buffer, a few rounds at most so one busy peer cannot hog its loop.
enum SocketReader {
  /// How a read loop ended.
  enum Outcome {
    /// Nothing more to read now (or the round limit, or the caller stopped wanting input).
    case drained
    /// The peer closed its side (read returned 0).
    case endOfFile
    /// The socket failed.
    case failed
  }

  /// Most reads in one readiness event.
  static let rounds = 4

  /// Reads while `wanted()` holds, handing each chunk to `deliver`; each read takes at most
  /// `allowance()` bytes (the connection's client's `ReadBudget`; 0 stops).
  static func read(
    _ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, while wanted: () -> Bool,
    allowance: () -> Int = { .max }, deliver: (UnsafeRawBufferPointer) -> Void
  ) -> Outcome {
    var round = 0
    while round < rounds && wanted() {
      let size = min(buffer.count, allowance())
      guard size > 0 else { return .drained }
      round += 1
      let count = systemRead(fd, buffer.baseAddress, size)
      if count > 0 {
        deliver(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        // A short read emptied the socket's buffer.
        if count < size { return .drained }
      } else if count == 0 {
        return .endOfFile
      } else {
        let error = errno
        if error == EINTR { continue }
        return error == EAGAIN || error == EWOULDBLOCK ? .drained : .failed
      }
    }
    return .drained
  }
}

private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  read(fd, buffer, count)
}
