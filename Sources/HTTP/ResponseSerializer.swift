/// Writes a response head: status line, `Date`, the response's fields, and the framing fields.
public enum ResponseSerializer {
  /// The head bytes, ending in the empty line.
  ///
  /// The server owns the framing: any `Content-Length`, `Transfer-Encoding` or (except in a 101)
  /// `Connection` field of the response is dropped; `Content-Length` is the body's size unless
  /// the status forbids a body (RFC 9110 §8.6), and `Connection` says `keepAlive` when given.
  /// Fields whose name or value could split the head are dropped too.
  public static func head(_ response: Response, date: [UInt8], keepAlive: Bool?) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(128 + (response.preparedFields?.count ?? response.headers.count * 48))
    appendHead(response, date: date, keepAlive: keepAlive, to: &out)
    return out
  }

  /// Writes the head at the end of `out`, as `head` returns it.
  public static func appendHead(
    _ response: Response, date: [UInt8], keepAlive: Bool?, to out: inout [UInt8]
  ) {
    // NB: no reserveCapacity here: appends grow the buffer geometrically, an exact reservation
    // per head would copy a pipelined batch over and over.
    // NB: the constant runs are appended as one piece each (`okDate`, `keepAliveLength`,
    // `endOfHead`): every append checks uniqueness and capacity, and a static file's head is
    // written for every request.
    if response.status == .ok {
      out.append(contentsOf: okDate)
    } else {
      out.append(contentsOf: version)
      appendDecimal(&out, response.status.code)
      out.append(UInt8(ascii: " "))
      out.append(contentsOf: response.status.reason.utf8)
      out.append(contentsOf: lineEnd)
      out.append(contentsOf: dateName)
    }
    out.append(contentsOf: date)
    out.append(contentsOf: lineEnd)
    if let prepared = response.preparedFields {
      out.append(contentsOf: prepared)
    } else {
      appendFields(&out, response.headers, status: response.status)
    }
    if response.status.forbidsBody {
      if let keepAlive { out.append(contentsOf: keepAlive ? keepAliveLine : closeLine) }
      out.append(contentsOf: lineEnd)
      return
    }
    switch keepAlive {
    case true?: out.append(contentsOf: keepAliveLength)
    case false?: out.append(contentsOf: closeLength)
    case nil: out.append(contentsOf: lengthName)
    }
    appendDecimal(&out, response.body.count)
    out.append(contentsOf: endOfHead)
  }

  /// The same, with the date as text (IMF-fixdate).
  public static func head(_ response: Response, date: String, keepAlive: Bool?) -> [UInt8] {
    head(response, date: Array(date.utf8), keepAlive: keepAlive)
  }

  // The constant pieces, as bytes once.
  private static let version = Array("HTTP/1.1 ".utf8)
  private static let okDate = Array("HTTP/1.1 200 OK\r\nDate: ".utf8)
  private static let dateName = Array("Date: ".utf8)
  private static let lengthName = Array("Content-Length: ".utf8)
  private static let keepAliveLine = Array("Connection: keep-alive\r\n".utf8)
  private static let closeLine = Array("Connection: close\r\n".utf8)
  private static let keepAliveLength = keepAliveLine + lengthName
  private static let closeLength = closeLine + lengthName
  private static let lineEnd: [UInt8] = [0x0D, 0x0A]
  private static let endOfHead: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A]

  /// The serialized header fields as `head` writes them, for `Response.prepare()`.
  static func fields(_ headers: HTTPHeaders, status: HTTPStatus) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(headers.count * 48)
    appendFields(&out, headers, status: status)
    return out
  }

  private static func appendFields(_ out: inout [UInt8], _ headers: HTTPHeaders, status: HTTPStatus)
  {
    for field in headers where isSafe(field) && !isFraming(field.name, status: status) {
      out.append(contentsOf: field.name.utf8)
      out.append(UInt8(ascii: ":"))
      out.append(UInt8(ascii: " "))
      out.append(contentsOf: field.value.utf8)
      out.append(0x0D)
      out.append(0x0A)
    }
  }

  private static func isFraming(_ name: String, status: HTTPStatus) -> Bool {
    HTTPHeaders.sameName(name, "Content-Length") || HTTPHeaders.sameName(name, "Transfer-Encoding")
      || (status.code != 101 && HTTPHeaders.sameName(name, "Connection"))
  }

  private static func isSafe(_ field: HTTPHeaders.Field) -> Bool {
    Syntax.isToken(field.name.utf8) && field.value.utf8.allSatisfy(Syntax.isFieldValueByte)
  }

  /// Appends a non-negative integer in decimal, without making a String: the digits are
  /// written on the stack and appended in one piece (every append checks uniqueness and
  /// capacity, and a file's `Content-Length` is written for every request).
  static func appendDecimal(_ out: inout [UInt8], _ value: Int) {
    var rest = UInt(max(value, 0))
    // NB: 24 bytes hold the 20 digits of the largest UInt.
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
    withUnsafeMutableBytes(of: &digits) { buffer in
      var index = buffer.count
      repeat {
        index -= 1
        buffer[index] = UInt8(truncatingIfNeeded: 0x30 + rest % 10)
        rest /= 10
      } while rest > 0
      out.append(
        contentsOf: UnsafeRawBufferPointer(rebasing: buffer[index...]).assumingMemoryBound(
          to: UInt8.self))
    }
  }
}
