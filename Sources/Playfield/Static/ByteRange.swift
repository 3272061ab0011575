/// A `Range` request header for one byte range (RFC 9110 §14.2).
enum ByteRange: Equatable {
  /// Serve the whole representation (no Range, a form we don't serve, or several ranges).
  case whole
  /// Serve bytes `lower...upper`.
  case part(ClosedRange<Int>)
  /// The range lies beyond the representation: 416.
  case unsatisfiable

  /// Interprets `header` for a representation of `size` bytes.
  init(_ header: String?, size: Int) {
    guard let header else {
      self = .whole
      return
    }
    let trimmed = header.trimmingSpaces()
    guard trimmed.lowercased().hasPrefix("bytes=") else {
      self = .whole
      return
    }
    let spec = trimmed.dropFirst(6).trimmingSpaces()
    // NB: several ranges may be ignored (RFC 9110 §14.2); we answer with the whole file.
    guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else {
      self = .whole
      return
    }
    let first = spec[..<dash].trimmingSpaces()
    let last = spec[spec.index(after: dash)...].trimmingSpaces()
    let isDigits = { (s: String) in !s.isEmpty && s.count <= 18 && s.allSatisfy(\.isASCIIDigit) }
    if first.isEmpty {
      // A suffix: the last N bytes.
      guard isDigits(last), let count = Int(last) else {
        self = .whole
        return
      }
      guard count > 0, size > 0 else {
        self = .unsatisfiable
        return
      }
      self = .part(max(0, size - count)...(size - 1))
      return
    }
    guard isDigits(first), let lower = Int(first) else {
      self = .whole
      return
    }
    var upper = size - 1
    if !last.isEmpty {
      guard isDigits(last), let value = Int(last), value >= lower else {
        self = .whole
        return
      }
      upper = min(value, size - 1)
    }
    guard lower < size else {
      self = .unsatisfiable
      return
    }
    self = .part(lower...upper)
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

extension Character {
  var isASCIIDigit: Bool { isASCII && isNumber }
}
