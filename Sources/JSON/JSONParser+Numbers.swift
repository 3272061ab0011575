extension JSONParser {
  // RFC 8259 §6: number = [ minus ] int [ frac ] [ exp ]; int = zero / ( digit1-9 *DIGIT ).
  mutating func parseNumber() throws(JSONParseError) -> Double {
    let start = index
    let negative = bytes[index] == UInt8(ascii: "-")
    if negative { index += 1 }
    guard index < bytes.count, Self.isDigit(bytes[index]) else {
      throw failure("expected a digit")
    }
    var mantissa: UInt64 = 0
    var exponent = 0
    var fitsFastPath = true
    var nonZero = false
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
      if index < bytes.count, Self.isDigit(bytes[index]) {
        throw failure("leading zeros are not allowed", at: start)
      }
    } else {
      while index < bytes.count, Self.isDigit(bytes[index]) {
        accumulate(bytes[index], into: &mantissa, fits: &fitsFastPath)
        nonZero = true
        index += 1
      }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard index < bytes.count, Self.isDigit(bytes[index]) else {
        throw failure("expected a digit after '.'")
      }
      while index < bytes.count, Self.isDigit(bytes[index]) {
        accumulate(bytes[index], into: &mantissa, fits: &fitsFastPath)
        nonZero = nonZero || bytes[index] != UInt8(ascii: "0")
        exponent -= 1
        index += 1
      }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      var exponentSign = 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
      {
        exponentSign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
        index += 1
      }
      guard index < bytes.count, Self.isDigit(bytes[index]) else {
        throw failure("expected a digit in the exponent")
      }
      var written = 0
      while index < bytes.count, Self.isDigit(bytes[index]) {
        // NB: clamp so absurd exponents cannot overflow Int; the slow path sees the real text.
        written = min(written * 10 + Int(bytes[index] - UInt8(ascii: "0")), 100_000)
        index += 1
      }
      exponent += exponentSign * written
    }
    let magnitude: Double
    if fitsFastPath, mantissa <= 1 << 53, (-22...22).contains(exponent) {
      // Clinger's fast path: an exact integer and an exact power of ten, one correctly
      // rounded IEEE operation, so the result is correctly rounded.
      let power = Self.powerOfTen(abs(exponent))
      magnitude = exponent < 0 ? Double(mantissa) / power : Double(mantissa) * power
    } else {
      let digitsStart = negative ? start + 1 : start
      let text = String(
        decoding: UnsafeBufferPointer(rebasing: bytes[digitsStart..<index]), as: UTF8.self)
      guard let parsed = Double(text) else {
        throw failure("number out of range: not a double", at: start)
      }
      magnitude = parsed
    }
    guard magnitude.isFinite else {
      throw failure("number out of range: too large for a double", at: start)
    }
    // NB: a literal like 1e-400 is not zero, but rounds to it; taking it as 0 would quietly
    // change what the sender meant.
    guard magnitude != 0 || !nonZero else {
      throw failure("number out of range: too small for a double, it would read as 0", at: start)
    }
    return negative ? -magnitude : magnitude
  }

  private func accumulate(_ digit: UInt8, into mantissa: inout UInt64, fits: inout Bool) {
    let (times10, overflow1) = mantissa.multipliedReportingOverflow(by: 10)
    let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit - UInt8(ascii: "0")))
    if overflow1 || overflow2 {
      fits = false
    } else {
      mantissa = sum
    }
  }

  private static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  private static func powerOfTen(_ exponent: Int) -> Double {
    var power = 1.0
    for _ in 0..<exponent { power *= 10 }
    return power
  }
}
