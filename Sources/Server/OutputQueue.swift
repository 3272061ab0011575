import CPosix

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Bytes waiting to be written to a socket, written with as few system calls as possible.
struct OutputQueue {
  enum WriteResult {
    case done
    case wouldBlock
    case failed
  }

  private var chunks: [[UInt8]] = []
  /// How much of `chunks[0]` is already written.
  private var offset = 0
  /// Unwritten bytes in all chunks.
  private(set) var byteCount = 0

  var isEmpty: Bool { chunks.isEmpty }

  mutating func append(_ bytes: [UInt8]) {
    guard !bytes.isEmpty else { return }
    chunks.append(bytes)
    byteCount += bytes.count
  }

  /// Writes until done, the socket is full, or it fails.
  mutating func write(to fd: Int32) -> WriteResult {
    while !chunks.isEmpty {
      let written = gather(0, into: []) { vectors in
        vectors.withUnsafeBufferPointer { writev(fd, $0.baseAddress, Int32($0.count)) }
      }
      if written < 0 {
        let error = errno
        if error == EINTR { continue }
        return error == EAGAIN || error == EWOULDBLOCK ? .wouldBlock : .failed
      }
      consume(written)
    }
    return .done
  }

  private mutating func consume(_ count: Int) {
    var remaining = count
    byteCount -= count
    while remaining > 0, let first = chunks.first {
      let left = first.count - offset
      if remaining >= left {
        remaining -= left
        chunks.removeFirst()
        offset = 0
      } else {
        offset += remaining
        remaining = 0
      }
    }
  }

  /// Calls `body` with iovecs for the first few chunks, their memory pinned meanwhile.
  private func gather(_ index: Int, into vectors: [iovec], _ body: ([iovec]) -> Int) -> Int {
    guard index < min(chunks.count, 16) else { return body(vectors) }
    return chunks[index].withUnsafeBytes { bytes in
      let start = index == 0 ? offset : 0
      var vectors = vectors
      vectors.append(
        iovec(
          iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress! + start),
          iov_len: bytes.count - start))
      return gather(index + 1, into: vectors, body)
    }
  }
}
