import Dispatch
import Foundation
import Testing

@testable import Tiles

@Suite struct PerturbationTests {
  /// Level-42 tiles with detail: around c = i, near the Misiurewicz point -0.1011 + 0.9563i, and
  /// the level-42 ancestor of the seahorse valley tile the Python test checks at level 101.
  static let switchOverTiles: [(TileCoordinate, Int)] = [
    (DeepTileSupport.tileAtI(zoom: 42), 200),
    (DeepTileSupport.tile(zoom: 42, cx: -0.10109636384562, cy: 0.95628651080914), 500),
    (
      TileCoordinate(
        zoom: 42, x: TileIndex(decimal: "1066044740813839062573383719173")!.ancestor(59),
        y: TileIndex(decimal: "1150736183086349467178411482532")!.ancestor(59))!, 1000
    ),
  ]

  /// At the last double level, perturbation and the plain kernel agree wherever doubles still
  /// resolve the orbits (around c = i, every pixel). Where they do not (long chaotic orbits near
  /// the boundary: 3% of the pixels near -0.1011 + 0.9563i at 500 iterations, 15% in seahorse
  /// valley at 1000), perturbation is the one that agrees with exact iteration.
  @Test(arguments: 0..<3)
  func switchOverTilesLookTheSameFromBothSides(index: Int) {
    let (tile, iterations) = Self.switchOverTiles[index]
    let plain = EscapeTimeKernel.simd4.render(
      Viewport(tile: tile), maxIterations: iterations, threads: 2)
    let deep = DeepTileSupport.deepField(tile, iterations: iterations)
    #expect(Set(plain.counts).count > 20, "a tile with detail")
    let differing = plain.counts.indices.filter { plain.counts[$0] != deep.counts[$0] }
    if index == 0 { #expect(differing.isEmpty) }
    #expect(differing.count <= plain.counts.count / 5)
    for pixel in differing.prefix(6) {
      let exact = DeepTileSupport.exactCount(
        tile, column: pixel % 256, row: pixel / 256, maxIterations: iterations)
      #expect(Int(deep.counts[pixel]) == exact, "pixel \(pixel): plain \(plain.counts[pixel])")
    }
  }

  @Test func bilinearStepsChangeNoCountAtDepth() {
    // c = i at 1e-30 and 1e-100: BLA skips most iterations of every pixel.
    for zoom in [101, 334] {
      let tile = DeepTileSupport.tileAtI(zoom: zoom)
      let with = DeepTileSupport.deepField(tile, iterations: 600)
      let without = DeepTileSupport.deepField(tile, iterations: 600, bilinear: false)
      #expect(Set(with.counts).count > 10, "a tile with some detail")
      #expect(DeepTileSupport.mismatches(with, without) == 0, "level \(zoom)")
    }
  }

  @Test func extendedDeltasAgreeWithDoublesWhereBothWork() {
    // Level 880 still fits doubles; the same tile forced through extended deltas must agree.
    let tile = DeepTileSupport.tileAtI(zoom: 880)
    let viewport = PerturbationViewport(tile: tile)
    let reference = PerturbationReference(viewport: viewport, maxIterations: 900)
    #expect(!viewport.needsExtendedRange)
    let loop = reference.orbit.x.withUnsafeBufferPointer { zx in
      reference.orbit.y.withUnsafeBufferPointer { zy in
        (0..<256).map { sample -> (Int, Int) in
          let (i, j) = (sample * 37 % 256, sample * 91 % 256)
          let (dcx, dcy) = viewport.offset(column: i, row: j, from: reference.offset)
          let extended = viewport.extendedOffset(column: i, row: j, from: reference.offset)
          let counts = [false, true].map { wide in
            PerturbationLoop(
              zx: zx, zy: zy, table: reference.table, maxIterations: 900, extended: wide
            ).iterate(dcx: dcx, dcy: dcy, extendedOffset: extended).count
          }
          return (counts[0], counts[1])
        }
      }
    }
    #expect(Set(loop.map(\.0)).count > 5)
    #expect(loop.filter { $0.0 != $0.1 }.isEmpty)
  }

  @Test func deepestTilesRender() {
    let tile = DeepTileSupport.tileAtI(zoom: TileCoordinate.maxZoom)
    let field = DeepTileSupport.deepField(tile, iterations: 2000)
    #expect(PerturbationViewport(tile: tile).needsExtendedRange)
    #expect(Set(field.counts).count > 10)
    #expect(field.counts.allSatisfy { $0 > 1000 && $0 < 2000 })
  }

  @Test func smoothCountsFollowTheCounts() {
    let tile = DeepTileSupport.tileAtI(zoom: 334)
    let field = DeepTileSupport.deepField(tile, iterations: 600, smooth: true)
    let smooth = try! #require(field.smoothCounts)
    for (count, mu) in zip(field.counts, smooth) where count < 600 {
      #expect(abs(Double(mu) - Double(count)) < 6)
    }
  }

  @Test func concurrentRendersShareOneReferenceOrbit() {
    let cache = OrbitCache()
    let tile = DeepTileSupport.tileAtI(zoom: 200)
    let neighbours = [0, 1, 2, 3].map { offset in
      TileCoordinate(
        zoom: 200, x: TileIndex(limbs: Limbs.add(tile.x.limbs, [UInt64(offset & 1)])),
        y: TileIndex(limbs: Limbs.add(tile.y.limbs, [UInt64(offset >> 1)])))!
    }
    #expect(Set(neighbours.map { PerturbationViewport(tile: $0).anchor }).count == 1)
    DispatchQueue.concurrentPerform(iterations: 8) { index in
      _ = cache.reference(
        for: PerturbationViewport(tile: neighbours[index % 4]), maxIterations: 3000)
    }
    let statistics = cache.statistics
    #expect(statistics.computed == 1)
    #expect(statistics.hits + statistics.joined == 7)
    _ = cache.reference(for: PerturbationViewport(tile: tile), maxIterations: 3001)
    #expect(cache.statistics.computed == 2)
  }

  @Test func orbitCacheEvictsTheLeastRecentlyUsed() {
    let cache = OrbitCache(capacity: 1)
    for zoom in [100, 101, 100] {
      _ = cache.reference(
        for: PerturbationViewport(tile: DeepTileSupport.tileAtI(zoom: zoom)), maxIterations: 50)
    }
    #expect(cache.statistics.computed == 3 && cache.statistics.evictions == 2)
  }

  @Test func rendererPicksTheKernelByDepth() throws {
    let renderer = TileRenderer(threads: 2)
    let shallow = TileRequest(tile: DeepTileSupport.tile(zoom: 42, cx: -0.1011, cy: 0.9563))
    #expect(
      renderer.field(for: shallow).counts
        == EscapeTimeKernel.simd4.render(Viewport(tile: shallow.tile), maxIterations: 200).counts)
    let deep = TileRequest(tile: DeepTileSupport.tileAtI(zoom: 1100), iterations: 1200)
    let png = try renderer.png(for: deep)
    #expect(png.starts(with: [0x89, 0x50, 0x4e, 0x47]))
    #expect(renderer.orbits.statistics.computed == 1)
  }
}
