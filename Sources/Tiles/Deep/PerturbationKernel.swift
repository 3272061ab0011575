import Dispatch

/// Escape counts for tiles past the double limit, by perturbation around a shared reference
/// orbit (see `PerturbationLoop`). Counts follow the plain loop's rules (updates done while
/// |z|² ≤ 4, capped), so the palettes colour them the same way.
public struct PerturbationKernel: Sendable {
  /// Whether BLA steps are taken; off only to measure what they save.
  public var usesBilinearSteps: Bool

  /// A kernel, with BLA steps unless told otherwise.
  public init(usesBilinearSteps: Bool = true) {
    self.usesBilinearSteps = usesBilinearSteps
  }

  /// Computes every pixel of `viewport` against `reference`, capped at `maxIterations`, on up
  /// to `threads` threads, with smooth counts when `smooth`.
  public func render(
    _ viewport: PerturbationViewport, reference: PerturbationReference, maxIterations: Int,
    smooth: Bool = false, threads: Int = 1
  ) -> EscapeField {
    let side = TileCoordinate.size
    let pixels = side * side
    var counts = [UInt32](repeating: 0, count: pixels)
    var smoothCounts = [Float](repeating: 0, count: smooth ? pixels : 0)
    reference.orbit.x.withUnsafeBufferPointer { zx in
      reference.orbit.y.withUnsafeBufferPointer { zy in
        counts.withUnsafeMutableBufferPointer { counts in
          smoothCounts.withUnsafeMutableBufferPointer { smoothCounts in
            let writer = FieldWriter(
              counts: counts.baseAddress!, smoothCounts: smooth ? smoothCounts.baseAddress! : nil,
              maxIterations: maxIterations)
            let loop = PerturbationLoop(
              zx: zx, zy: zy, table: usesBilinearSteps ? reference.table : nil,
              maxIterations: maxIterations, extended: viewport.needsExtendedRange)
            let rows = RowDispenser(rows: side)
            let work = Work(loop: loop, writer: writer, viewport: viewport, reference: reference)
            if threads <= 1 {
              work.run(rows)
            } else {
              DispatchQueue.concurrentPerform(iterations: threads) { _ in work.run(rows) }
            }
          }
        }
      }
    }
    return EscapeField(
      width: side, height: side, maxIterations: maxIterations, counts: counts,
      smoothCounts: smooth ? smoothCounts : nil)
  }

  /// The rows of one render, shared by its threads, each of which writes only the rows it takes.
  private struct Work: @unchecked Sendable {
    let loop: PerturbationLoop
    let writer: FieldWriter
    let viewport: PerturbationViewport
    let reference: PerturbationReference

    func run(_ rows: RowDispenser) {
      let side = TileCoordinate.size
      while let j = rows.take() {
        for i in 0..<side {
          let (dcx, dcy) = viewport.offset(column: i, row: j)
          let extended = loop.extended ? viewport.extendedOffset(column: i, row: j) : .zero
          let (count, x, y) = loop.iterate(dcx: dcx, dcy: dcy, extendedOffset: extended)
          let pixel = j * side + i
          if count >= loop.maxIterations {
            writer.inside(pixel)
          } else {
            writer.escaped(
              pixel, count: count, x: x, y: y, cx: reference.cx + dcx, cy: reference.cy + dcy)
          }
        }
      }
    }
  }
}
