/// Constants of the compact binary form of a packing (see `ApollonianPacking.binary`).
public enum SphereBinary {
  /// `PFSP`: Playfield spheres.
  public static let magic: [UInt8] = Array("PFSP".utf8)
  /// Bumped when the layout changes.
  public static let version: UInt32 = 1
  /// Bytes before the first float.
  public static let headerSize = 16
  /// The media type.
  public static let mediaType = "application/octet-stream"
}
