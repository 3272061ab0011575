import Foundation

/// Checks the names people type: high-score names and maze names.
public enum NameValidator {
  /// The most characters (grapheme clusters) a name may have.
  public static let maxCharacters = 32
  /// The most UTF-8 bytes a name may have (stops a few characters made of many marks).
  public static let maxBytes = 128

  /// The name trimmed of surrounding spaces and in Unicode NFC, or `StoreError.invalidName`.
  ///
  /// A valid name has 1 to 32 characters and no control, format (invisible), private-use,
  /// unassigned or line-separator code points. It is stored as is: escaping is the page's job.
  public static func validate(_ raw: String) throws(StoreError) -> String {
    let name = raw.trimmingCharacters(in: .whitespaces).precomposedStringWithCanonicalMapping
    guard !name.isEmpty else {
      throw .invalidName("name is empty")
    }
    guard name.count <= maxCharacters else {
      throw .invalidName("name is longer than \(maxCharacters) characters")
    }
    guard name.utf8.count <= maxBytes else {
      throw .invalidName("name is too long (more than \(maxBytes) bytes of UTF-8)")
    }
    for scalar in name.unicodeScalars where isForbidden(scalar) {
      let code = String(format: "U+%04X", scalar.value)
      throw .invalidName("name contains a control or invisible character (\(code))")
    }
    return name
  }

  private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator,
      .paragraphSeparator:
      true
    default:
      false
    }
  }
}
