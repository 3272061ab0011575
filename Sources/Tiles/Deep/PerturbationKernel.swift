import Dispatch

/// Escape counts for tiles past the double limit, by perturbation around a shared reference
/// orbit (see `PerturbationLoop`). Counts follow the plain loop's rules (updates done while
/// |z|² ≤ 4, capped), so the palettes colour them the same way.
///
/// Pixels that outlive the shared reference (their count is past the end of its orbit) were
/// iterated in plain doubles from then on, which near minibrots loses their place; they are
/// drawn again around a reference of the tile's own: the longest-lived of them.
public struct PerturbationKernel: Sendable {
  /// Whether BLA steps are taken; off only to measure what they save.
  public var usesBilinearSteps: Bool
  /// Passes with a tile's own reference, for the pixels that outlive the previous one.
  public var extraReferences: Int

  /// A kernel, with BLA steps unless told otherwise.
  public init(usesBilinearSteps: Bool = true, extraReferences: Int = 3) {
    self.usesBilinearSteps = usesBilinearSteps
    self.extraReferences = extraReferences
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
    counts.withUnsafeMutableBufferPointer { counts in
      smoothCounts.withUnsafeMutableBufferPointer { smoothCounts in
        let writer = FieldWriter(
          counts: counts.baseAddress!, smoothCounts: smooth ? smoothCounts.baseAddress! : nil,
          maxIterations: maxIterations)
        pass(viewport, reference, writer: writer, pixels: nil, threads: threads)
        var current = reference
        var outliving = (0..<pixels).filter { Int(counts[$0]) > current.orbit.last }
        for _ in 0..<extraReferences {
          guard let longest = outliving.max(by: { counts[$0] < counts[$1] }) else { break }
          let point = (
            viewport.numerator(column: longest % side), viewport.numerator(row: longest / side)
          )
          let own = PerturbationReference(
            viewport: viewport, candidates: [point], maxIterations: maxIterations)
          guard own.orbit.last > current.orbit.last else { break }
          pass(viewport, own, writer: writer, pixels: outliving, threads: threads)
          current = own
          outliving = outliving.filter { Int(counts[$0]) > own.orbit.last }
        }
      }
    }
    return EscapeField(
      width: side, height: side, maxIterations: maxIterations, counts: counts,
      smoothCounts: smooth ? smoothCounts : nil)
  }

  /// Draws `pixels` (all when nil) against `reference`.
  private func pass(
    _ viewport: PerturbationViewport, _ reference: PerturbationReference, writer: FieldWriter,
    pixels: [Int]?, threads: Int
  ) {
    reference.orbit.x.withUnsafeBufferPointer { zx in
      reference.orbit.y.withUnsafeBufferPointer { zy in
        let loop = PerturbationLoop(
          zx: zx, zy: zy, table: usesBilinearSteps ? reference.table : nil,
          maxIterations: writer.maxIterations, extended: viewport.needsExtendedRange)
        let work = Work(
          loop: loop, writer: writer, viewport: viewport, reference: reference, pixels: pixels)
        let chunks = RowDispenser(rows: ((pixels?.count ?? work.side * work.side) + 255) / 256)
        if threads <= 1 {
          work.run(chunks)
        } else {
          DispatchQueue.concurrentPerform(iterations: threads) { _ in work.run(chunks) }
        }
      }
    }
  }

  /// One pass, shared by its threads, each of which writes only the chunks of 256 pixels (a
  /// row, when drawing the whole tile) it takes.
  private struct Work: @unchecked Sendable {
    let loop: PerturbationLoop
    let writer: FieldWriter
    let viewport: PerturbationViewport
    let reference: PerturbationReference
    let pixels: [Int]?
    let side = TileCoordinate.size

    func run(_ chunks: RowDispenser) {
      while let chunk = chunks.take() {
        if let pixels {
          for index in (256 * chunk)..<min(256 * chunk + 256, pixels.count) {
            draw(pixels[index])
          }
        } else {
          for pixel in (256 * chunk)..<(256 * chunk + 256) { draw(pixel) }
        }
      }
    }

    @inline(__always)
    func draw(_ pixel: Int) {
      let (i, j) = (pixel % side, pixel / side)
      let (dcx, dcy) = viewport.offset(column: i, row: j, from: reference.offset)
      let extended =
        loop.extended ? viewport.extendedOffset(column: i, row: j, from: reference.offset) : .zero
      let (count, x, y) = loop.iterate(dcx: dcx, dcy: dcy, extendedOffset: extended)
      if count >= loop.maxIterations {
        writer.inside(pixel)
      } else {
        writer.escaped(
          pixel, count: count, x: x, y: y, cx: reference.cx + dcx, cy: reference.cy + dcy)
      }
    }
  }
}
