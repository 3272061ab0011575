import Dispatch
import PNGShim

/// A way of computing escape counts. Every kernel gives counts identical, bit for bit, to the
/// plain scalar loop of `shared/bench/mandel_tile.h`; they differ only in speed.
///
/// A perturbation kernel for zoom past doubles will be another case, with its own viewport.
public enum EscapeTimeKernel: String, Sendable, CaseIterable {
  /// The plain loop, one pixel at a time: the reference the others are tested against.
  case scalar
  /// Sixteen lanes as four SIMD4<Double> vectors (AVX2). The main cardioid and period-2 bulb
  /// are answered without iterating; a first pass takes sixteen neighbours at a time for a few
  /// updates; then lanes are refilled one by one as their pixels finish, and long orbits are
  /// checked for exact periodicity. Uses several threads.
  case simd4
  /// The same with two SIMD8<Double> vectors (AVX-512).
  case simd8

  /// The fastest kernel for the CPU this module was compiled for: `simd8` when the build
  /// targets AVX-512 (`-march=native` on such a CPU), else `simd4`.
  public static var preferred: EscapeTimeKernel {
    pf_compiled_for_avx512() != 0 ? .simd8 : .simd4
  }

  /// Updates the group pass does before handing a pixel on to the lane blocks.
  static let groupLimit = 16
  /// Updates the plain lane blocks do before handing an orbit on to the periodicity check.
  static let laneLimit = 64
  /// Iterations between the points the periodic phase saves and compares against: a cycle of
  /// up to this length is caught at most `savePeriod` + its length after the orbit settles.
  static let savePeriod = 64

  /// Computes the escape count of every pixel of `viewport`, capped at `maxIterations`, using up
  /// to `threads` threads, and with `smooth` also what smooth colouring needs.
  public func render(
    _ viewport: Viewport, maxIterations: Int, smooth: Bool = false, threads: Int = 1
  ) -> EscapeField {
    // NB: without a cancellation the render cannot stop early, so it never throws.
    try! render(
      viewport, maxIterations: maxIterations, smooth: smooth, threads: threads, pool: nil,
      cancellation: nil)
  }

  /// The same on `threads` threads of `pool` (of Dispatch's pool when nil), stopping with
  /// `RenderStopped` soon after `cancellation` says so.
  public func render(
    _ viewport: Viewport, maxIterations: Int, smooth: Bool, threads: Int, pool: RenderPool?,
    cancellation: RenderCancellation?
  ) throws(RenderStopped) -> EscapeField {
    precondition(maxIterations > 0 && maxIterations <= Int(UInt32.max), "bad maxIterations")
    let pixels = viewport.width * viewport.height
    var counts = [UInt32](repeating: 0, count: pixels)
    var smoothCounts = [Float](repeating: 0, count: smooth ? pixels : 0)
    let parallelism = Parallelism(threads: threads, pool: pool)
    counts.withUnsafeMutableBufferPointer { counts in
      smoothCounts.withUnsafeMutableBufferPointer { smoothCounts in
        let writer = FieldWriter(
          counts: counts.baseAddress!, smoothCounts: smooth ? smoothCounts.baseAddress! : nil,
          maxIterations: maxIterations)
        fill(viewport, writer: writer, parallelism, cancellation)
      }
    }
    if let reason = cancellation?.reason { throw reason }
    return EscapeField(
      width: viewport.width, height: viewport.height, maxIterations: maxIterations,
      counts: counts, smoothCounts: smooth ? smoothCounts : nil)
  }

  private func fill(
    _ viewport: Viewport, writer: FieldWriter, _ parallelism: Parallelism,
    _ cancellation: RenderCancellation?
  ) {
    switch self {
    case .scalar:
      ScalarLoop.fill(viewport, writer: writer, cancellation: cancellation)
    case .simd4:
      LaneRender.fill(
        viewport, writer: writer, shape: .four, parallelism: parallelism,
        cancellation: cancellation)
    case .simd8:
      LaneRender.fill(
        viewport, writer: writer, shape: .eight, parallelism: parallelism,
        cancellation: cancellation)
    }
  }
}
