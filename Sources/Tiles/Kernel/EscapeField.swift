/// The escape counts of a viewport's pixels, row-major with row 0 at the top.
public struct EscapeField: Sendable, Equatable {
  /// How many more z ← z² + c updates are done past escape before the smooth count is taken:
  /// enough that it no longer shows the bands of the small bailout radius 2.
  public static let extraIterations = 4

  /// Number of columns.
  public let width: Int
  /// Number of rows.
  public let height: Int
  /// The cap on the count; a pixel whose count equals it is inside the set.
  public let maxIterations: Int
  /// Per pixel, the number of z ← z² + c updates done while |z|² ≤ 4, capped at `maxIterations`.
  public var counts: [UInt32]
  /// Per escaped pixel, the continuous count μ = m + 1 - log2(log2|z_m|) taken at
  /// m = n + `extraIterations` (0 inside); nil when the render did not ask for it.
  public var smoothCounts: [Float]?

  /// A field of `counts` (and `smoothCounts`) laid out `width` by `height`.
  public init(
    width: Int, height: Int, maxIterations: Int, counts: [UInt32], smoothCounts: [Float]? = nil
  ) {
    precondition(counts.count == width * height, "counts do not fill the field")
    precondition(smoothCounts.map { $0.count == counts.count } ?? true, "smooth counts do not fit")
    self.width = width
    self.height = height
    self.maxIterations = maxIterations
    self.counts = counts
    self.smoothCounts = smoothCounts
  }

  /// The sum of all counts: the checksum `mandel_ref` prints as `total_iters`.
  public var totalIterations: UInt64 {
    counts.reduce(0) { $0 + UInt64($1) }
  }
}
