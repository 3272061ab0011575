/// A tile's body and what it cost to make.
public struct RenderedTile: Sendable {
  /// The PNG or the counts' bytes.
  public var body: [UInt8]
  /// How long each phase took.
  public var timings: RenderTimings
}
