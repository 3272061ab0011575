/// A `Range` request header for one byte range (RFC 9110 §14.2).
enum ByteRange: Equatable {
  /// Serve the whole representation (no Range, another unit, or several ranges).
  case whole
  /// Serve bytes `lower...upper`.
  case part(ClosedRange<Int>)
  /// The range lies beyond the representation, or is malformed: 416.
  case unsatisfiable

  /// Interprets `header` for a representation of `size` bytes.
  ///
  /// An unknown unit is ignored (RFC 9110 §14.2 MUST). A malformed `bytes` range set may be
  /// ignored or refused; it is refused with 416, as nginx does. Several ranges are answered with
  /// the whole file (allowed by §14.2), unless none of them can be satisfied.
  init(_ header: String?, size: Int) {
    guard let header else {
      self = .whole
      return
    }
    let trimmed = header.trimmingSpaces()
    guard trimmed.count >= 6, trimmed.prefix(6).lowercased() == "bytes=" else {
      self = .whole
      return
    }
    // RFC 9110 §5.6.1.2: empty list elements are ignored.
    let specs = trimmed.dropFirst(6).split(separator: ",").map { $0.trimmingSpaces() }
      .filter { !$0.isEmpty }
    var parts: [ClosedRange<Int>] = []
    for spec in specs {
      guard let range = Self.parse(spec, size: size) else {
        self = .unsatisfiable
        return
      }
      if let range { parts.append(range) }
    }
    switch parts.count {
    case 0: self = .unsatisfiable
    case 1 where specs.count == 1: self = .part(parts[0])
    default: self = .whole
    }
  }

  /// One `first-last`, `first-` or `-suffix`: nil when malformed, `.some(nil)` when it lies
  /// outside the representation.
  private static func parse(_ spec: String, size: Int) -> ClosedRange<Int>?? {
    guard let dash = spec.firstIndex(of: "-") else { return nil }
    let first = spec[..<dash]
    let last = spec[spec.index(after: dash)...]
    if first.isEmpty {
      // A suffix: the last N bytes.
      guard let count = number(last) else { return nil }
      guard count > 0, size > 0 else { return .some(nil) }
      return max(0, size - min(count, size))...(size - 1)
    }
    guard let lower = number(first) else { return nil }
    var upper = Int.max
    if !last.isEmpty {
      guard let value = number(last), value >= lower else { return nil }
      upper = value
    }
    guard lower < size else { return .some(nil) }
    return lower...min(upper, size - 1)
  }

  /// Decimal digits as a number; a number too long for Int counts as Int.max.
  private static func number(_ text: Substring) -> Int? {
    guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
    return Int(text) ?? Int.max
  }
}

extension StringProtocol {
  func trimmingSpaces() -> String {
    var slice = Substring(self)
    while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
    while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
    return String(slice)
  }
}
