extension HTMLDocument {
  /// Most attributes of one start tag that are read; the rest are dropped before libxml2 sees
  /// them. libxml2 (2.9) checks each attribute of a tag against every one before it and
  /// appends it by walking the tag's list, so one tag's cost grows with the square of its
  /// attributes: a 430 KB `<div a0="v" a1="v" ...>` of 40,000 cost 3 s of CPU, 1 MB 16 s. Real
  /// tags have a few dozen; a broken one (an unescaped quote in a `content`) can have hundreds
  /// of bare words, whose tail is lost then.
  static let maxAttributesPerTag = 200

  /// `bytes` with each start tag cut to its first `maxAttributesPerTag` attributes, as libxml2
  /// would read them (names outside quotes, up to the tag's `>`), or nil when no tag has more.
  /// One pass, and a copy only when some tag has more.
  static func uncrowded(_ bytes: [UInt8]) -> [UInt8]? {
    var scan = AttributeScan()
    guard let first = bytes.indices.first(where: { scan.read(bytes[$0]) == .crowded }) else {
      return nil
    }
    var result = Array(bytes[..<first])
    result.reserveCapacity(bytes.count)
    var dropping = true
    for byte in bytes[(first + 1)...] {
      switch scan.read(byte) {
      case .crowded: dropping = true
      case .closed:
        dropping = false
        result.append(byte)
      case .other where !dropping: result.append(byte)
      case .other: break
      }
    }
    return result
  }
}
