import CPosix

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Bytes waiting to be written to a socket, gathered into as few `sendmsg` calls as possible.
///
/// Chunks are kept as they come (a response head, a cached file's body), never joined, and
/// written together with one vectored call; what the socket does not take stays queued.
struct OutputQueue {
  enum WriteResult {
    case done
    case wouldBlock
    case failed
  }

  private var chunks: [[UInt8]] = []
  /// Index of the first chunk not completely written.
  private var first = 0
  /// How much of `chunks[first]` is already written.
  private var offset = 0
  /// Unwritten bytes in all chunks.
  private(set) var byteCount = 0

  /// Most chunks handed to one `sendmsg`.
  static let maxVectors = 64

  var isEmpty: Bool { byteCount == 0 }

  mutating func append(_ bytes: [UInt8]) {
    guard !bytes.isEmpty else { return }
    chunks.append(bytes)
    byteCount += bytes.count
  }

  /// Drops everything not yet written.
  mutating func removeAll() {
    chunks.removeAll()
    first = 0
    offset = 0
    byteCount = 0
  }

  /// Writes until done, the socket is full, or it fails.
  mutating func write(to fd: Int32) -> WriteResult {
    while byteCount > 0 {
      let count = min(chunks.count - first, Self.maxVectors)
      let written = withUnsafeTemporaryAllocation(of: iovec.self, capacity: count) { vectors in
        gather(first, into: vectors, filled: 0) { send(fd, $0) }
      }
      if written < 0 {
        let error = errno
        if error == EINTR { continue }
        return error == EAGAIN || error == EWOULDBLOCK ? .wouldBlock : .failed
      }
      consume(written)
    }
    chunks.removeAll(keepingCapacity: true)
    first = 0
    offset = 0
    return .done
  }

  private mutating func consume(_ count: Int) {
    var remaining = count
    byteCount -= count
    while remaining > 0 {
      let left = chunks[first].count - offset
      if remaining >= left {
        remaining -= left
        chunks[first] = []
        first += 1
        offset = 0
      } else {
        offset += remaining
        remaining = 0
      }
    }
  }

  /// Fills `vectors` from chunk `index` on, each chunk's memory pinned while `body` runs.
  private func gather(
    _ index: Int, into vectors: UnsafeMutableBufferPointer<iovec>, filled: Int,
    _ body: (UnsafeMutableBufferPointer<iovec>) -> Int
  ) -> Int {
    guard filled < vectors.count else { return body(vectors) }
    return chunks[index].withUnsafeBytes { bytes in
      let start = index == first ? offset : 0
      vectors[filled] = iovec(
        iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress! + start),
        iov_len: bytes.count - start)
      return gather(index + 1, into: vectors, filled: filled + 1, body)
    }
  }

  /// One `sendmsg` of the vectors, with MSG_NOSIGNAL so a closed peer is an error, not SIGPIPE.
  private func send(_ fd: Int32, _ vectors: UnsafeMutableBufferPointer<iovec>) -> Int {
    var message = msghdr()
    message.msg_iov = vectors.baseAddress
    #if canImport(Glibc)
      message.msg_iovlen = vectors.count
      return sendmsg(fd, &message, Int32(MSG_NOSIGNAL))
    #else
      message.msg_iovlen = Int32(vectors.count)
      return sendmsg(fd, &message, 0)
    #endif
  }
}
