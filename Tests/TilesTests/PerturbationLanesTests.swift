import Testing

@testable import Tiles

@Suite struct PerturbationLanesTests {
  static let seahorse = TileCoordinate(
    zoom: 101, x: TileIndex(decimal: "1066044740813839062573383719173")!,
    y: TileIndex(decimal: "1150736183086349467178411482532")!)!

  /// Tiles and caps that take every path of the loop: seahorse valley at 1e-30 (long orbits,
  /// BLA, a periodic nucleus reference), c = i at 1e-100 and 1e-300 (BLA skipping most
  /// iterations; extended deltas at 1e-300), and two shallow tiles where the reference is far
  /// from most pixels (or of period 2), so they rebase every few updates.
  static let cases: [(TileCoordinate, Int)] = [
    (seahorse, 3000),
    (DeepTileSupport.tileAtI(zoom: 334), 1000),
    (DeepTileSupport.tileAtI(zoom: 998), 2000),
    (TileCoordinate(zoom: 5, x: 14, y: 11)!, 1000),
    (DeepTileSupport.tile(zoom: 20, cx: -0.7436438870371587, cy: 0.1318259042053119), 3000),
  ]

  /// The seahorse tile's reference at 3000 is a nucleus of period 1,327, so most of its pixels
  /// rebase at the orbit's end, again and again.
  @Test(arguments: 0..<5, [(true, 3), (false, 3), (true, 0)])
  func lanesGiveTheScalarLoopsCountsAndSmoothValues(index: Int, kernel: (Bool, Int)) throws {
    let (tile, iterations) = Self.cases[index]
    let (bilinear, extraReferences) = kernel
    try compare(
      tile, iterations: iterations, search: .nucleus, bilinear: bilinear,
      extraReferences: extraReferences)
  }

  /// The same around the grid's reference, which the seahorse tile outlives at 3000 (924
  /// pixels), so the extra references' passes are compared too (and, with none, the rebase
  /// at the end of an orbit that escaped).
  @Test(arguments: [3, 0])
  func lanesGiveTheScalarLoopsCountsAroundAGridReference(extraReferences: Int) throws {
    try compare(
      Self.seahorse, iterations: 3000, search: .grid, bilinear: true,
      extraReferences: extraReferences)
  }

  private func compare(
    _ tile: TileCoordinate, iterations: Int, search: PerturbationReference.Search,
    bilinear: Bool, extraReferences: Int
  ) throws {
    let viewport = PerturbationViewport(tile: tile)
    let reference = PerturbationReference(
      viewport: viewport, maxIterations: iterations, search: search)
    let fields = [false, true].map { lanes in
      PerturbationKernel(
        usesBilinearSteps: bilinear, extraReferences: extraReferences, usesLanes: lanes
      ).render(viewport, reference: reference, maxIterations: iterations, smooth: true, threads: 2)
    }
    #expect(Set(fields[0].counts).count > 10, "a tile with detail")
    #expect(fields[0].counts.contains { $0 < iterations }, "some pixels escape")
    let differing = fields[0].counts.indices.filter { fields[0].counts[$0] != fields[1].counts[$0] }
    #expect(differing.isEmpty, "\(differing.count) pixels, first \(differing.prefix(4))")
    let scalarSmooth = try #require(fields[0].smoothCounts)
    let laneSmooth = try #require(fields[1].smoothCounts)
    let smoothDiffering = scalarSmooth.indices.filter {
      scalarSmooth[$0].bitPattern != laneSmooth[$0].bitPattern
    }
    #expect(smoothDiffering.isEmpty, "\(smoothDiffering.count) smooth values")
  }

  /// A reference cut short after `length` updates (it stays bounded, so every pixel must
  /// rebase at its end, again and again): lanes and the scalar loop agree on every pixel's count
  /// and final z, bit for bit.
  @Test(arguments: [1, 2, 7, 50])
  func lanesRebaseAtTheEndOfAShortReference(length: Int) {
    let iterations = 600
    let viewport = PerturbationViewport(tile: TileCoordinate(zoom: 5, x: 14, y: 11)!)
    // NB: the grid search, for a reference that lasts the cap (the nucleus here has period 2).
    let reference = PerturbationReference(
      viewport: viewport, maxIterations: iterations, search: .grid)
    #expect(reference.orbit.last == iterations)
    reference.orbit.x.withUnsafeBufferPointer { zx in
      reference.orbit.y.withUnsafeBufferPointer { zy in
        let loop = PerturbationLoop(
          zx: UnsafeBufferPointer(rebasing: zx[...length]),
          zy: UnsafeBufferPointer(rebasing: zy[...length]), table: nil,
          maxIterations: iterations, extended: false)
        let offsets = (0..<256 * 256).map { pixel in
          viewport.offset(column: pixel % 256, row: pixel / 256, from: reference.offset)
        }
        var lanes = PerturbationLanes()
        var results = [(count: Int, x: Double, y: Double)](
          repeating: (-1, .nan, .nan), count: offsets.count)
        var pixels = offsets.indices.makeIterator()
        lanes.run(
          loop, orbit: LaneOrbit(loop), next: { pixels.next() },
          offsets: { .init(dcx: offsets[$0].0, dcy: offsets[$0].1, extended: .zero) },
          finish: { results[$0] = ($1, $2, $3) })
        var differing = 0
        var escaped = 0
        for (pixel, (dcx, dcy)) in offsets.enumerated() {
          let scalar = loop.iterate(dcx: dcx, dcy: dcy, extendedOffset: .zero)
          let lane = results[pixel]
          if scalar.count < iterations { escaped += 1 }
          if lane.count != scalar.count || lane.x.bitPattern != scalar.x.bitPattern
            || lane.y.bitPattern != scalar.y.bitPattern
          {
            differing += 1
          }
        }
        #expect(escaped > 1000 && escaped < offsets.count)
        #expect(differing == 0)
      }
    }
  }

  @Test func everyLaneRecordCarriesItsOrbitPointAndRadius() {
    let viewport = PerturbationViewport(tile: DeepTileSupport.tileAtI(zoom: 998))
    let reference = PerturbationReference(viewport: viewport, maxIterations: 500)
    reference.orbit.x.withUnsafeBufferPointer { zx in
      reference.orbit.y.withUnsafeBufferPointer { zy in
        let loop = PerturbationLoop(
          zx: zx, zy: zy, table: reference.table, maxIterations: 500, extended: true)
        let orbit = LaneOrbit(loop)
        let singles = reference.table.levels[0]
        #expect(orbit.last == reference.orbit.last && orbit.hasRadii)
        #expect(orbit.records[0] == SIMD4(0, 0, PerturbationLoop.extendedCeiling, 0))
        for m in 1...orbit.last {
          let radius = m - 1 < singles.count ? singles[m - 1].radius : 0
          #expect(orbit.records[m] == SIMD4(zx[m], zy[m], radius, 0))
        }
        let plain = LaneOrbit(
          PerturbationLoop(zx: zx, zy: zy, table: nil, maxIterations: 500, extended: false))
        #expect(!plain.hasRadii)
        #expect((0...plain.last).allSatisfy { plain.records[$0][2] == 0 })
      }
    }
  }
}
