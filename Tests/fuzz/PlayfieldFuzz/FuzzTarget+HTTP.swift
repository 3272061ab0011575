import HTTP

extension FuzzTarget {
  /// Any bytes, read in pieces as a connection would (pipelined requests, fixed and chunked
  /// bodies), must give requests or one failure, never a crash; consumed counts stay in range.
  static func http(_ bytes: [UInt8]) {
    guard let control = bytes.first else { return }
    let input = Array(bytes.dropFirst())
    let piece = max(1, Int(control))
    var limits = HTTPLimits.default
    limits.maxBody = 1 << 16
    var parser = RequestParser(limits: limits)
    var unread: [UInt8] = []
    var offset = 0
    var requests = 0
    reading: while offset < input.count || !unread.isEmpty {
      if offset < input.count {
        let end = min(input.count, offset + piece)
        unread += input[offset..<end]
        offset = end
      }
      while true {
        let (step, consumed) = parser.parse(unread)
        precondition(consumed >= 0 && consumed <= unread.count)
        unread.removeFirst(consumed)
        switch step {
        case .needMore:
          if offset >= input.count { break reading }
          continue reading
        case .expectContinue:
          continue
        case .request(let request):
          requests += 1
          precondition(request.body.count <= limits.maxBody)
          route(request)
          if requests > 64 { break reading }
        case .failure:
          break reading
        }
      }
    }
  }

  /// What the app does first with a request: Host, path segments, query.
  private static func route(_ request: Request) {
    _ = HostPolicy(names: ["playfield.example"]).allows(request)
    _ = try? URLPath.segments(request.path)
    _ = try? QueryParameters(request.query)
    _ = request.keepAlive
    // The fields kept as bytes read back whole: each name finds a value, in order.
    let fields = request.headers.fields
    precondition(fields.count == request.headers.count)
    for field in fields {
      precondition(request.headers.values(field.name).contains(field.value))
    }
  }
}
