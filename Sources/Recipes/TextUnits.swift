/// A line as the rules that read it letter by letter see it: units that are each a scalar with
/// the combining marks after it ("e" + U+0301 is one unit, as it is one Character).
///
/// NB: Characters would do, but Unicode's grapheme breaking and Character properties cost more
/// on a long line than the rest of its import, and a client chooses how long its lines are.
/// Units differ from Characters only where recipe text never goes (emoji sequences, Hangul
/// written in jamo); a unit's properties are its first scalar's, as a Character's mostly are.
struct TextUnits {
  private let bytes: [UInt8]
  /// The first scalar of each unit.
  private let firsts: [Unicode.Scalar]
  /// Where each unit starts in `bytes`, and `bytes.count` last.
  private let offsets: [Int]

  init(_ text: String) {
    bytes = Array(text.utf8)
    var firsts: [Unicode.Scalar] = []
    var offsets: [Int] = []
    firsts.reserveCapacity(bytes.count)
    offsets.reserveCapacity(bytes.count + 1)
    var offset = 0
    for scalar in text.unicodeScalars {
      if !scalar.isMark || firsts.isEmpty {
        firsts.append(scalar)
        offsets.append(offset)
      }
      offset += UTF8.width(scalar)
    }
    offsets.append(offset)
    (self.firsts, self.offsets) = (firsts, offsets)
  }

  var count: Int { firsts.count }
  var indices: Range<Int> { firsts.indices }

  /// The first scalar of unit `index`.
  subscript(index: Int) -> Unicode.Scalar { firsts[index] }

  /// Whether unit `index` is one ASCII scalar, as `Character.isASCII` has it.
  func isASCII(_ index: Int) -> Bool {
    firsts[index].isASCII && isLone(index)
  }

  /// Whether unit `index` is one scalar, and one of `set`'s.
  func isOne(of set: String, at index: Int) -> Bool {
    isLone(index) && set.unicodeScalars.contains(firsts[index])
  }

  /// Units `range` as a string.
  func string(_ range: Range<Int>) -> String {
    String(decoding: bytes[offsets[range.lowerBound]..<offsets[range.upperBound]], as: UTF8.self)
  }

  private func isLone(_ index: Int) -> Bool {
    offsets[index + 1] - offsets[index] == UTF8.width(firsts[index])
  }
}

/// Unicode's properties with the ASCII answers first: the lookup is most of a letter's cost.
extension Unicode.Scalar {
  var isMark: Bool {
    guard !isASCII else { return false }
    switch properties.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark: return true
    default: return false
    }
  }

  var isLowercaseLetter: Bool { isASCII ? (0x61...0x7A).contains(value) : properties.isLowercase }
  var isUppercaseLetter: Bool { isASCII ? (0x41...0x5A).contains(value) : properties.isUppercase }
  var isLetter: Bool {
    isASCII ? isLowercaseLetter || isUppercaseLetter : properties.isAlphabetic
  }
  var isSpace: Bool {
    isASCII ? value == 0x20 || (0x09...0x0D).contains(value) : properties.isWhitespace
  }
  var isDigit: Bool { (0x30...0x39).contains(value) }
  /// A digit of any script, or a numeral such as "½" (`Character.isNumber`).
  var isNumeral: Bool { isASCII ? isDigit : properties.numericType != nil }
}
