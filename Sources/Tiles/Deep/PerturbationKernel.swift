import Dispatch

/// Escape counts for tiles past the double limit, by perturbation around a shared reference
/// orbit (see `PerturbationLoop`), sixteen pixels at a time in SIMD lanes (`PerturbationLanes`).
/// Counts follow the plain loop's rules (updates done while |z|² ≤ 4, capped), so the palettes
/// colour them the same way.
///
/// Pixels that outlive the shared reference (their count is past the end of its orbit) were
/// iterated in plain doubles from then on, which near minibrots loses their place; they are
/// drawn again around a reference of the tile's own: the longest-lived of them.
public struct PerturbationKernel: Sendable {
  /// Whether BLA steps are taken; off only to measure what they save.
  public var usesBilinearSteps: Bool
  /// Passes with a tile's own reference, for the pixels that outlive the previous one.
  public var extraReferences: Int
  /// Whether pixels run sixteen at a time in SIMD lanes (`PerturbationLanes`); off, one at a
  /// time in `PerturbationLoop`, which gives the same counts, only to compare the two.
  public var usesLanes: Bool

  /// A kernel, with BLA steps and SIMD lanes unless told otherwise.
  public init(usesBilinearSteps: Bool = true, extraReferences: Int = 3, usesLanes: Bool = true) {
    self.usesBilinearSteps = usesBilinearSteps
    self.extraReferences = extraReferences
    self.usesLanes = usesLanes
  }

  /// Computes every pixel of `viewport` against `reference`, capped at `maxIterations`, on up
  /// to `threads` threads, with smooth counts when `smooth`.
  public func render(
    _ viewport: PerturbationViewport, reference: PerturbationReference, maxIterations: Int,
    smooth: Bool = false, threads: Int = 1
  ) -> EscapeField {
    // NB: without a cancellation the render cannot stop early, so it never throws.
    try! render(
      viewport, reference: reference, maxIterations: maxIterations, smooth: smooth,
      threads: threads, pool: nil, cancellation: nil)
  }

  /// The same on `threads` threads of `pool` (of Dispatch's pool when nil), stopping with
  /// `RenderStopped` soon after `cancellation` says so.
  public func render(
    _ viewport: PerturbationViewport, reference: PerturbationReference, maxIterations: Int,
    smooth: Bool, threads: Int, pool: RenderPool?, cancellation: RenderCancellation?
  ) throws(RenderStopped) -> EscapeField {
    let side = TileCoordinate.size
    let pixels = side * side
    let parallelism = Parallelism(threads: threads, pool: pool)
    var counts = [UInt32](repeating: 0, count: pixels)
    var smoothCounts = [Float](repeating: 0, count: smooth ? pixels : 0)
    let stopped = counts.withUnsafeMutableBufferPointer { counts in
      smoothCounts.withUnsafeMutableBufferPointer { smoothCounts -> RenderStopped? in
        let writer = FieldWriter(
          counts: counts.baseAddress!, smoothCounts: smooth ? smoothCounts.baseAddress! : nil,
          maxIterations: maxIterations)
        pass(viewport, reference, writer: writer, pixels: nil, parallelism, cancellation)
        var current = reference
        var outliving =
          reference.isPeriodic ? [] : (0..<pixels).filter { Int(counts[$0]) > current.orbit.last }
        for _ in 0..<extraReferences {
          if let reason = cancellation?.reason { return reason }
          guard let longest = outliving.max(by: { counts[$0] < counts[$1] }) else { break }
          let point = (
            viewport.fineNumerator(column: longest % side),
            viewport.fineNumerator(row: longest / side)
          )
          let found = Result { () throws(RenderStopped) in
            try PerturbationReference(
              viewport: viewport, candidates: [point], maxIterations: maxIterations,
              cancellation: cancellation)
          }
          let own: PerturbationReference
          switch found {
          case .success(let reference): own = reference
          case .failure(let reason): return reason
          }
          guard own.orbit.last > current.orbit.last else { break }
          pass(viewport, own, writer: writer, pixels: outliving, parallelism, cancellation)
          current = own
          outliving = outliving.filter { Int(counts[$0]) > own.orbit.last }
        }
        return cancellation?.reason
      }
    }
    if let stopped { throw stopped }
    return EscapeField(
      width: side, height: side, maxIterations: maxIterations, counts: counts,
      smoothCounts: smooth ? smoothCounts : nil)
  }

  /// Draws `pixels` (all when nil) against `reference`.
  private func pass(
    _ viewport: PerturbationViewport, _ reference: PerturbationReference, writer: FieldWriter,
    pixels: [Int]?, _ parallelism: Parallelism, _ cancellation: RenderCancellation?
  ) {
    reference.orbit.x.withUnsafeBufferPointer { zx in
      reference.orbit.y.withUnsafeBufferPointer { zy in
        let loop = PerturbationLoop(
          zx: zx, zy: zy, table: usesBilinearSteps ? reference.table : nil,
          maxIterations: writer.maxIterations, extended: viewport.needsExtendedRange)
        let work = Work(
          loop: loop, writer: writer, viewport: viewport, reference: reference, pixels: pixels)
        let chunks = RowDispenser(
          rows: ((pixels?.count ?? work.side * work.side) + 255) / 256, cancellation: cancellation)
        let orbit = usesLanes ? LaneOrbit(loop) : nil
        parallelism.run { _ in work.run(chunks, orbit) }
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

    /// Draws the chunks this thread takes, in SIMD lanes around `orbit` when given.
    func run(_ chunks: RowDispenser, _ orbit: LaneOrbit?) {
      if let orbit {
        var pending = 0..<0
        var lanes = PerturbationLanes()
        lanes.run(
          loop, orbit: orbit,
          next: {
            if pending.isEmpty {
              guard let chunk = chunks.take() else { return nil }
              let total = pixels?.count ?? side * side
              pending = (256 * chunk)..<min(256 * chunk + 256, total)
            }
            // NB: a chunk of slow pixels takes tens of milliseconds, so a cancelled render
            // also stops between pixels (every 16th looks), not only between chunks.
            if pending.lowerBound % 16 == 0, chunks.isCancelled { return nil }
            defer { pending = pending.dropFirst() }
            return pixels?[pending.lowerBound] ?? pending.lowerBound
          },
          offsets: offsets, finish: finish)
        return
      }
      while let chunk = chunks.take() {
        let indices = (256 * chunk)..<min(256 * chunk + 256, pixels?.count ?? side * side)
        for index in indices {
          if index % 16 == 0, chunks.isCancelled { return }
          draw(pixels?[index] ?? index)
        }
      }
    }

    @inline(__always)
    func draw(_ pixel: Int) {
      let offset = offsets(pixel)
      let (count, x, y) = loop.iterate(
        dcx: offset.dcx, dcy: offset.dcy, extendedOffset: offset.extended)
      finish(pixel, count: count, x: x, y: y)
    }

    /// The offset of `pixel` from the reference (the extended form only where needed).
    @inline(__always)
    func offsets(_ pixel: Int) -> PerturbationLanes.Offsets {
      let (i, j) = (pixel % side, pixel / side)
      let (dcx, dcy) = viewport.offset(column: i, row: j, from: reference.offset)
      let extended =
        loop.extended ? viewport.extendedOffset(column: i, row: j, from: reference.offset) : .zero
      return PerturbationLanes.Offsets(dcx: dcx, dcy: dcy, extended: extended)
    }

    /// Writes out `pixel` with the count and z where its loop stopped.
    @inline(__always)
    func finish(_ pixel: Int, count: Int, x: Double, y: Double) {
      if count >= loop.maxIterations {
        writer.inside(pixel)
      } else {
        let (dcx, dcy) = viewport.offset(
          column: pixel % side, row: pixel / side, from: reference.offset)
        writer.escaped(
          pixel, count: count, x: x, y: y, cx: reference.cx + dcx, cy: reference.cy + dcy)
      }
    }
  }
}
