import CPosix

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Bytes waiting to be written to a socket, gathered into as few `sendmsg` calls as possible.
///
/// Small pieces (response heads) are written straight into one staging buffer that is reused
/// from one write to the next, so they cost no allocation; bodies are kept as the arrays they
/// came in (a cached file's bytes), never copied or joined. Everything queued goes out in one
/// vectored call; what the socket does not take stays queued.
struct OutputQueue {
  enum WriteResult {
    case done
    case wouldBlock
    case failed
  }

  private enum Chunk {
    /// A range of `staged`.
    case staged(Range<Int>)
    case bytes([UInt8])

    var count: Int {
      switch self {
      case .staged(let range): range.count
      case .bytes(let bytes): bytes.count
      }
    }
  }

  private var staged: [UInt8] = []
  private var chunks: [Chunk] = []
  /// What the queued responses hold until they are written (`Response.heldUntilWritten`): let
  /// go once everything queued is written, or dropped.
  private var held: [any AnyObject & Sendable] = []
  /// Index of the first chunk not completely written.
  private var first = 0
  /// How much of `chunks[first]` is already written.
  private var offset = 0
  /// Unwritten bytes in all chunks.
  private(set) var byteCount = 0

  /// Most chunks handed to one `sendmsg`.
  static let maxVectors = 64

  var isEmpty: Bool { byteCount == 0 }

  /// Appends bytes that `write` puts at the end of the staging buffer.
  mutating func stage(_ write: (inout [UInt8]) -> Void) {
    let start = staged.count
    write(&staged)
    guard staged.count > start else { return }
    if case .staged(let last) = chunks.last, last.upperBound == start {
      chunks[chunks.count - 1] = .staged(last.lowerBound..<staged.count)
    } else {
      chunks.append(.staged(start..<staged.count))
    }
    byteCount += staged.count - start
  }

  /// Appends bytes as they are, without copying them.
  mutating func append(_ bytes: [UInt8]) {
    guard !bytes.isEmpty else { return }
    chunks.append(.bytes(bytes))
    byteCount += bytes.count
  }

  /// Keeps `object` until everything queued so far (and after) is written, or dropped.
  mutating func hold(_ object: any AnyObject & Sendable) {
    held.append(object)
  }

  /// Drops everything not yet written.
  mutating func removeAll() {
    staged = []
    chunks = []
    held = []
    first = 0
    offset = 0
    byteCount = 0
  }

  /// Writes until done, the socket is full, or it fails.
  mutating func write(to fd: Int32) -> WriteResult {
    while byteCount > 0 {
      let count = min(chunks.count - first, Self.maxVectors)
      let written = withUnsafeTemporaryAllocation(of: iovec.self, capacity: count) { vectors in
        staged.withUnsafeBytes { staging in
          gather(first, staging: staging, into: vectors, filled: 0) { send(fd, $0) }
        }
      }
      if written < 0 {
        let error = errno
        if error == EINTR { continue }
        return error == EAGAIN || error == EWOULDBLOCK ? .wouldBlock : .failed
      }
      consume(written)
    }
    // Everything is out: keep the buffers' capacity for the next response.
    staged.removeAll(keepingCapacity: true)
    chunks.removeAll(keepingCapacity: true)
    if !held.isEmpty { held.removeAll() }
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
        if case .bytes = chunks[first] { chunks[first] = .staged(0..<0) }
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
    _ index: Int, staging: UnsafeRawBufferPointer, into vectors: UnsafeMutableBufferPointer<iovec>,
    filled: Int, _ body: (UnsafeMutableBufferPointer<iovec>) -> Int
  ) -> Int {
    guard filled < vectors.count else { return body(vectors) }
    let start = index == first ? offset : 0
    switch chunks[index] {
    case .staged(let range):
      vectors[filled] = iovec(
        iov_base: UnsafeMutableRawPointer(
          mutating: staging.baseAddress! + range.lowerBound + start),
        iov_len: range.count - start)
      return gather(index + 1, staging: staging, into: vectors, filled: filled + 1, body)
    case .bytes(let bytes):
      return bytes.withUnsafeBytes { pinned in
        vectors[filled] = iovec(
          iov_base: UnsafeMutableRawPointer(mutating: pinned.baseAddress! + start),
          iov_len: pinned.count - start)
        return gather(index + 1, staging: staging, into: vectors, filled: filled + 1, body)
      }
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
