/// The chunked transfer coding of a request body (RFC 9112 §7.1), decoded as the bytes arrive.
///
/// Sizes and extensions are read byte by byte, so neither leading zeros nor long extensions
/// need buffering; the framing bytes of one body are bounded like the body itself.
struct ChunkedBody: Sendable {
  enum Phase: Sendable, Equatable {
    /// Reading the hex digits of a chunk size.
    case size
    /// After the digits: optional whitespace, then `;` extensions, up to the line end.
    case sizeLineRest(extensionStarted: Bool)
    /// A CR ended the size line; the LF must follow.
    case sizeLineFeed
    case data(remaining: Int)
    /// The CRLF after a chunk's data.
    case dataEnd
    /// Reading the trailer section; `size` bytes of it so far.
    case trailers(size: Int)
  }

  enum Result: Sendable {
    case more
    case done
    case failure(HTTPError)
  }

  var phase = Phase.size
  /// The size of the chunk whose size line is being read.
  var size = 0
  var digits = 0
  /// Bytes of size lines and extensions read so far.
  var framing = 0

  static let malformedSize = HTTPError(.badRequest, "the chunk size is malformed")

  /// Consumes what it can of `p`, appending chunk data to `body`.
  mutating func advance(_ p: UnsafeBufferPointer<UInt8>, body: inout [UInt8], limits: HTTPLimits)
    -> (Result, consumed: Int)
  {
    var i = 0
    while i < p.count {
      switch phase {
      case .size:
        guard let digit = Syntax.hexValue(p[i]) else {
          guard digits > 0 else { return (.failure(Self.malformedSize), i) }
          phase = .sizeLineRest(extensionStarted: false)
          continue
        }
        size = size * 16 + digit
        guard size <= limits.maxBody - body.count else {
          return (
            .failure(
              HTTPError(.contentTooLarge, "the body is larger than \(limits.maxBody) bytes")), i
          )
        }
        digits += 1
        i += 1
        if let error = countFraming(limits) { return (.failure(error), i) }

      case .sizeLineRest(let extensionStarted):
        let byte = p[i]
        i += 1
        if let error = countFraming(limits) { return (.failure(error), i) }
        switch byte {
        case 0x0A:
          startChunk(body: &body)
        case 0x0D:
          phase = .sizeLineFeed
        case 0x20, 0x09:
          break
        case UInt8(ascii: ";") where !extensionStarted:
          phase = .sizeLineRest(extensionStarted: true)
        default:
          // RFC 9112 §7.1.1: chunk-ext = *( BWS ";" BWS name [ BWS "=" BWS value ] ).
          guard extensionStarted, Syntax.isFieldValueByte(byte) else {
            return (.failure(Self.malformedSize), i)
          }
        }

      case .sizeLineFeed:
        guard p[i] == 0x0A else {
          return (.failure(HTTPError(.badRequest, "a bare CR in a chunk size line")), i)
        }
        i += 1
        startChunk(body: &body)

      case .data(let remaining):
        let take = min(remaining, p.count - i)
        body.append(contentsOf: UnsafeBufferPointer(rebasing: p[i..<(i + take)]))
        i += take
        phase = take == remaining ? .dataEnd : .data(remaining: remaining - take)

      case .dataEnd:
        if p[i] == 0x0A {
          phase = .size
          i += 1
          continue
        }
        guard p[i] == 0x0D else {
          return (.failure(HTTPError(.badRequest, "chunk data is longer than its size")), i)
        }
        guard i + 1 < p.count else { return (.more, i) }
        guard p[i + 1] == 0x0A else {
          return (.failure(HTTPError(.badRequest, "chunk data is longer than its size")), i)
        }
        phase = .size
        i += 2

      case .trailers(let size):
        let (result, used) = trailerLine(
          UnsafeBufferPointer(rebasing: p[i...]), size: size, limits: limits)
        i += used
        if case .more = result, used > 0 { continue }
        return (result, i)
      }
    }
    return (.more, i)
  }

  /// Counts one byte of size lines and extensions; they may not outgrow the body limit.
  private mutating func countFraming(_ limits: HTTPLimits) -> HTTPError? {
    framing += 1
    return framing > limits.maxBody
      ? HTTPError(.contentTooLarge, "the chunk framing is too large") : nil
  }

  /// A size line ended: the next chunk's data follows, or the trailers after the last chunk.
  private mutating func startChunk(body: inout [UInt8]) {
    if size == 0 {
      phase = .trailers(size: 0)
    } else {
      body.reserveCapacity(body.count + size)
      phase = .data(remaining: size)
    }
    size = 0
    digits = 0
  }

  /// Reads one trailer line (RFC 9112 §7.1.2): checked like a header field, then dropped.
  private mutating func trailerLine(
    _ p: UnsafeBufferPointer<UInt8>, size: Int, limits: HTTPLimits
  ) -> (Result, Int) {
    guard let newline = p.firstIndex(of: 0x0A) else {
      guard size + p.count <= limits.maxHeaderBlock else {
        return (.failure(HTTPError(.headerFieldsTooLarge, "the trailer section is too large")), 0)
      }
      return (.more, 0)
    }
    var end = newline
    if end > 0, p[end - 1] == 0x0D { end -= 1 }
    if end == 0 { return (.done, newline + 1) }
    let line = p[..<end]
    if case .failure(let error) = RequestHead.fieldParts(line) { return (.failure(error), 0) }
    guard size + newline + 1 <= limits.maxHeaderBlock else {
      return (.failure(HTTPError(.headerFieldsTooLarge, "the trailer section is too large")), 0)
    }
    phase = .trailers(size: size + newline + 1)
    return (.more, newline + 1)
  }
}
