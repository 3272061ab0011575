import Foundation

/// score.py's `norm`: HTML entities unescaped, no-break spaces and runs of whitespace as one
/// space, trimmed.
enum HTMLTextForTests {
  static func normalise(_ text: String) -> String {
    var decoded = text
    for (entity, character) in [
      ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"),
      ("&nbsp;", " "),
    ] {
      decoded = decoded.replacingOccurrences(of: entity, with: character)
    }
    return decoded.replacingOccurrences(of: "\u{A0}", with: " ")
      .split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
  }
}
