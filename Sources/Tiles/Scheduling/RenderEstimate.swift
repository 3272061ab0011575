/// What a render may cost, worked out before it starts from the tile's level, its cap and what
/// the orbit cache holds: a bound for scheduling or refusing work, not a prediction. Most
/// pixels escape long before the cap, and BLA skips most of a deep pixel's updates, so real
/// renders are usually far cheaper; a tile inside a minibrot at levels 43 to 55 is not.
public struct RenderEstimate: Sendable, Equatable {
  /// Which kernel draws the tile.
  public enum Kernel: Sendable, Equatable {
    /// Plain doubles, SIMD (down to level 42).
    case plain
    /// Perturbation around a reference orbit (deeper).
    case perturbation
  }

  /// Which kernel draws the tile.
  public var kernel: Kernel
  /// Pixel updates if every pixel ran to the cap: 65,536 × the cap.
  public var pixelUpdates: Int
  /// `BigFixed` updates the reference still needs: none when the orbit cache holds it (or the
  /// tile needs none), else the anchor centre's orbit to the cap and, when that escapes, about
  /// three periods more for the nucleus (`NucleusSearch`), each period at most the cap.
  public var referenceUpdates: Int
  /// 64-bit limbs of each `BigFixed` number; one update costs two products of that many limbs
  /// squared.
  public var referenceLimbs: Int

  /// Plain updates per second on one core, at the worst: pixels that never escape and never
  /// repeat exactly (benchmarks.md: 830 to 3,300 Miter/s, on a busy and a quiet machine).
  public static let plainUpdatesPerSecond = 1.0e9
  /// Perturbation updates per second on one core without BLA (benchmarks.md: 230 to 920
  /// Miter/s; issue 22 measured 17 CPU-seconds for a tile of 6.5e9 updates at levels 43 to 70).
  public static let perturbationUpdatesPerSecond = 0.5e9
  /// Products of two 64-bit limbs per second in exact updates (benchmarks.md, `OrbitStepper`
  /// on a busy machine: 0.24e9 at 18 limbs, 0.5e9 at 34).
  public static let limbProductsPerSecond = 0.3e9

  /// Seconds of one core the render takes at most, at the rates above.
  public var seconds: Double {
    let rate =
      kernel == .plain ? Self.plainUpdatesPerSecond : Self.perturbationUpdatesPerSecond
    let limbProducts = 2 * Double(referenceUpdates) * Double(referenceLimbs * referenceLimbs)
    return Double(pixelUpdates) / rate + limbProducts / Self.limbProductsPerSecond
  }
}
