/// The chunked transfer coding of a request body (RFC 9112 §7.1), one step at a time.
enum ChunkedBody {
  enum Result: Sendable {
    case more(RequestParser.ChunkPhase)
    case done
    case failure(HTTPError)
  }

  /// Consumes what it can of `p` in `phase`, appending chunk data to `body`.
  static func advance(
    _ p: UnsafeBufferPointer<UInt8>, phase: RequestParser.ChunkPhase, body: inout [UInt8],
    limits: HTTPLimits
  ) -> (Result, consumed: Int) {
    switch phase {
    case .sizeLine:
      guard let newline = p.firstIndex(of: 0x0A) else {
        guard p.count <= limits.maxChunkLine else {
          return (.failure(HTTPError(.badRequest, "a chunk size line is too long")), 0)
        }
        return (.more(.sizeLine), 0)
      }
      guard newline <= limits.maxChunkLine else {
        return (.failure(HTTPError(.badRequest, "a chunk size line is too long")), 0)
      }
      var end = newline
      if end > 0, p[end - 1] == 0x0D { end -= 1 }
      switch chunkSize(p[..<end], bodySoFar: body.count, limits: limits) {
      case .failure(let error):
        return (.failure(error), newline + 1)
      case .success(0):
        return (.more(.trailers(size: 0)), newline + 1)
      case .success(let size):
        body.reserveCapacity(body.count + size)
        return (.more(.data(remaining: size)), newline + 1)
      }

    case .data(let remaining):
      let take = min(remaining, p.count)
      body.append(contentsOf: UnsafeBufferPointer(rebasing: p[..<take]))
      return (.more(take == remaining ? .dataEnd : .data(remaining: remaining - take)), take)

    case .dataEnd:
      guard let first = p.first else { return (.more(.dataEnd), 0) }
      if first == 0x0A { return (.more(.sizeLine), 1) }
      guard first == 0x0D else {
        return (.failure(HTTPError(.badRequest, "chunk data is longer than its size")), 0)
      }
      guard p.count >= 2 else { return (.more(.dataEnd), 0) }
      guard p[1] == 0x0A else {
        return (.failure(HTTPError(.badRequest, "chunk data is longer than its size")), 0)
      }
      return (.more(.sizeLine), 2)

    case .trailers(let size):
      guard let newline = p.firstIndex(of: 0x0A) else {
        guard size + p.count <= limits.maxHeaderBlock else {
          return (.failure(HTTPError(.headerFieldsTooLarge, "the trailer section is too large")), 0)
        }
        return (.more(.trailers(size: size)), 0)
      }
      var end = newline
      if end > 0, p[end - 1] == 0x0D { end -= 1 }
      if end == 0 { return (.done, newline + 1) }
      let line = p[..<end]
      guard !line.contains(0x0D) else {
        return (.failure(HTTPError(.badRequest, "a bare CR in the trailer section")), 0)
      }
      if case .failure(let error) = RequestHead.parseField(line) { return (.failure(error), 0) }
      guard size + newline + 1 <= limits.maxHeaderBlock else {
        return (.failure(HTTPError(.headerFieldsTooLarge, "the trailer section is too large")), 0)
      }
      return (.more(.trailers(size: size + newline + 1)), newline + 1)
    }
  }

  /// Parses `chunk-size [ chunk-ext ]`: 1*HEXDIG, then optional `;`-separated extensions.
  static func chunkSize(_ line: ByteSlice, bodySoFar: Int, limits: HTTPLimits)
    -> Swift.Result<
      Int, HTTPError
    >
  {
    let bad = HTTPError(.badRequest, "the chunk size is malformed")
    var index = line.startIndex
    var size = 0
    var significant = 0
    while index < line.endIndex, let digit = Syntax.hexValue(line[index]) {
      if size > 0 || digit > 0 { significant += 1 }
      guard significant <= 15 else {
        return .failure(HTTPError(.contentTooLarge, "a chunk is larger than the body limit"))
      }
      size = size * 16 + digit
      index += 1
    }
    guard index > line.startIndex, index - line.startIndex <= 64 else { return .failure(bad) }
    while index < line.endIndex, line[index] == 0x20 || line[index] == 0x09 { index += 1 }
    if index < line.endIndex {
      guard line[index] == UInt8(ascii: ";") else { return .failure(bad) }
      guard line[index...].allSatisfy(Syntax.isFieldValueByte) else { return .failure(bad) }
    }
    guard size <= limits.maxBody - bodySoFar else {
      return .failure(
        HTTPError(.contentTooLarge, "the body is larger than \(limits.maxBody) bytes"))
    }
    return .success(size)
  }
}
