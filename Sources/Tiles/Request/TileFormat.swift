/// What a tile's body holds, named by the suffix of its path.
public enum TileFormat: String, Sendable, Hashable, CaseIterable {
  /// `Z/X/Y.png`: the picture, in the request's palette.
  case png
  /// `Z/X/Y.counts`: the escape counts themselves, little-endian (see
  /// `EscapeField.countsBody`), so that a client can check a tile's exactness or colour it
  /// its own way.
  case counts

  /// The path's suffix, with its dot.
  public var suffix: String { "." + rawValue }

  /// The `Content-Type` of the body.
  public var mediaType: String {
    switch self {
    case .png: "image/png"
    case .counts: "application/octet-stream"
    }
  }
}
