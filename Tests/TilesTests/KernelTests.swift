import TestSupport
import Testing

@testable import Tiles

/// A tile, its iteration cap, and the `total_iters` the C reference prints for it.
struct ReferenceTile: CustomTestStringConvertible, Sendable {
  let zoom: Int
  let x: Int
  let y: Int
  let iterations: Int
  let referenceTotal: UInt64

  var viewport: Viewport { Viewport(tile: TileCoordinate(zoom: zoom, x: x, y: y)!) }
  var testDescription: String { "\(zoom)/\(x)/\(y)@\(iterations)" }
}

// Each total is the `total_iters` printed by `mandel_ref Z X Y ITER avx2` (built from
// shared/bench/mandel_ref.c, which also checked its AVX2 counts against its scalar loop):
// an independent C implementation of the same geometry and loop.
let referenceTiles = [
  ReferenceTile(zoom: 0, x: 0, y: 0, iterations: 200, referenceTotal: 2_490_382),
  ReferenceTile(zoom: 0, x: 0, y: 0, iterations: 1, referenceTotal: 65_536),
  ReferenceTile(zoom: 5, x: 14, y: 11, iterations: 1000, referenceTotal: 23_251_559),
  ReferenceTile(zoom: 3, x: 4, y: 2, iterations: 1000, referenceTotal: 46_801_823),
  ReferenceTile(zoom: 3, x: 2, y: 3, iterations: 1000, referenceTotal: 39_931_444),
  ReferenceTile(zoom: 3, x: 6, y: 3, iterations: 1000, referenceTotal: 20_202_154),
  // The seahorse valley spiral, deep: boundary everywhere, slow periodic orbits.
  ReferenceTile(zoom: 20, x: 439_128, y: 478_211, iterations: 1000, referenceTotal: 56_399_947),
  ReferenceTile(
    zoom: 28, x: 112_416_842, y: 122_422_145, iterations: 1000, referenceTotal: 64_903_516),
  // A minibrot on the antenna: periodic orbits of long period.
  ReferenceTile(zoom: 12, x: 315, y: 2050, iterations: 1000, referenceTotal: 38_865_966),
  // The cusp at c = 1/4: points inside the cardioid's margin are iterated the long way.
  ReferenceTile(zoom: 12, x: 3072, y: 2047, iterations: 1000, referenceTotal: 64_536_320),
  ReferenceTile(zoom: 20, x: 786_466, y: 524_287, iterations: 1000, referenceTotal: 41_880_793),
  ReferenceTile(
    zoom: 42, x: 3_298_534_883_328, y: 2_199_023_255_551, iterations: 1000,
    referenceTotal: 65_536_000),
  // The neck between the cardioid and the period-2 bulb at c = -3/4.
  ReferenceTile(
    zoom: 30, x: 447_392_426, y: 536_870_911, iterations: 1000, referenceTotal: 65_536_000),
]

@Suite struct KernelTests {
  @Test(arguments: referenceTiles)
  func scalarLoopMatchesTheCReference(tile: ReferenceTile) {
    let field = EscapeTimeKernel.scalar.render(tile.viewport, maxIterations: tile.iterations)
    #expect(field.totalIterations == tile.referenceTotal)
  }

  @Test(arguments: referenceTiles)
  func simdKernelsMatchTheScalarLoopBitForBit(tile: ReferenceTile) {
    let reference = EscapeTimeKernel.scalar.render(tile.viewport, maxIterations: tile.iterations)
    for kernel in [EscapeTimeKernel.simd4, .simd8] {
      for threads in [1, 2] {
        let field = kernel.render(tile.viewport, maxIterations: tile.iterations, threads: threads)
        #expect(field.counts == reference.counts, "\(kernel) on \(threads) threads")
      }
    }
  }

  @Test func randomTilesNearTheBoundaryMatchTheScalarLoop() {
    // A fixed sequence of tiles around well-known boundary points, at every depth.
    var random = SplitMix64(seed: 0x5eed_7175)
    let points = [
      (-0.743643887037151, 0.131825904205330), (-1.768778833, -0.001738996), (-0.1011, 0.9563),
      (0.25, 0.0), (-0.75, 0.0), (-1.25066, 0.02012), (-0.1226, 0.7449), (0.28, 0.008),
    ]
    for index in 0..<16 {
      let (real, imaginary) = points[index % points.count]
      let zoom = Int(random.next() % UInt64(TileCoordinate.doubleLimit + 1))
      let side = 3.0 / Double(1 << zoom)
      let last = (1 << zoom) - 1
      let x = min(max(Int(((real + 2) / side).rounded(.down)) + random.offset(), 0), last)
      let y = min(max(Int(((1.5 - imaginary) / side).rounded(.down)) + random.offset(), 0), last)
      let iterations = [50, 200, 777, 1000][Int(random.next() % 4)]
      let viewport = Viewport(tile: TileCoordinate(zoom: zoom, x: x, y: y)!)
      let smooth = index % 2 == 0
      let reference = EscapeTimeKernel.scalar.render(
        viewport, maxIterations: iterations, smooth: smooth)
      for kernel in [EscapeTimeKernel.simd4, .simd8] {
        let field = kernel.render(viewport, maxIterations: iterations, smooth: smooth, threads: 2)
        #expect(field == reference, "\(kernel) on \(zoom)/\(x)/\(y)@\(iterations)")
      }
    }
  }

  @Test func smoothCountsMatchTheScalarLoop() {
    for tile in referenceTiles.prefix(3) {
      let reference = EscapeTimeKernel.scalar.render(
        tile.viewport, maxIterations: tile.iterations, smooth: true)
      let field = EscapeTimeKernel.preferred.render(
        tile.viewport, maxIterations: tile.iterations, smooth: true, threads: 2)
      #expect(field.smoothCounts == reference.smoothCounts)
      #expect(field.counts == reference.counts)
    }
  }

  @Test func smoothCountFallsSteadilyAwayFromTheSet() throws {
    // Along the real axis right of the cusp, escape gets faster as c grows: the raw count
    // drops in steps, the smooth count must fall without ever rising.
    let step = 0.0005
    let ray = Viewport(left: 0.26 - step / 2, top: step / 2, step: step, width: 3480, height: 1)
    let field = EscapeTimeKernel.scalar.render(ray, maxIterations: 10_000, smooth: true)
    let smooth = try #require(field.smoothCounts)
    #expect(Set(field.counts).count > 20)
    for pixel in 1..<smooth.count {
      #expect(smooth[pixel] <= smooth[pixel - 1], "c = \(ray.real(column: pixel))")
    }
  }

  @Test func interiorTestAgreesWithIterationInsideAndOut() {
    // Centres of the two components, points just inside and well outside them.
    #expect(InteriorTest.contains(real: 0, imaginary: 0))
    #expect(InteriorTest.contains(real: -1, imaginary: 0))
    #expect(InteriorTest.contains(real: -0.5, imaginary: 0.5))
    #expect(InteriorTest.contains(real: 0.2499, imaginary: 0))
    #expect(InteriorTest.contains(real: -0.7499, imaginary: 1e-9))
    #expect(InteriorTest.contains(real: -1.2499, imaginary: 0))
    // Boundary points, where the cycle is neutral, are left to the loop.
    #expect(!InteriorTest.contains(real: 0.25, imaginary: 0))
    #expect(!InteriorTest.contains(real: -0.75, imaginary: 0))
    #expect(!InteriorTest.contains(real: -0.75, imaginary: 1e-9))
    #expect(!InteriorTest.contains(real: -1.25, imaginary: 0))
    #expect(!InteriorTest.contains(real: -0.75 + 1e-9, imaginary: 0))
    #expect(!InteriorTest.contains(real: 0.2501, imaginary: 0))
    #expect(!InteriorTest.contains(real: -1.2501, imaginary: 0))
    #expect(!InteriorTest.contains(real: -0.1226, imaginary: 0.7449))
    for j in 0..<200 {
      for i in 0..<300 {
        let cx = -2 + 0.01 * Double(i)
        let cy = -1.5 + 0.015 * Double(j)
        guard InteriorTest.contains(real: cx, imaginary: cy) else { continue }
        #expect(ScalarLoop.iterate(cx: cx, cy: cy, maxIterations: 5000).count == 5000)
      }
    }
  }

  @Test func viewportFollowsTheTileGeometry() {
    let root = Viewport(tile: TileCoordinate(zoom: 0, x: 0, y: 0)!)
    let rootStep: Double = 3.0 / 256
    #expect(root.left == -2)
    #expect(root.top == 1.5)
    #expect(root.step == rootStep)
    let firstColumn: Double = -2 + 0.5 * rootStep
    let lastRow: Double = 1.5 - 255.5 * rootStep
    #expect(root.real(column: 0) == firstColumn)
    #expect(root.imaginary(row: 255) == lastRow)
    let tile = Viewport(tile: TileCoordinate(zoom: 5, x: 14, y: 11)!)
    let side: Double = 3.0 / 32
    let left: Double = -2 + 14 * side
    let top: Double = 1.5 - 11 * side
    #expect(tile.left == left)
    #expect(tile.top == top)
    #expect(tile.step == side / 256)
  }

  @Test func coordinatesOutsideTheQuadtreeAreRejected() {
    #expect(TileCoordinate(zoom: 0, x: 0, y: 0) != nil)
    #expect(TileCoordinate(zoom: 3, x: 7, y: 7) != nil)
    #expect(TileCoordinate(zoom: 3, x: 8, y: 0) == nil)
    #expect(TileCoordinate(zoom: 3, x: 0, y: -1) == nil)
    #expect(TileCoordinate(zoom: -1, x: 0, y: 0) == nil)
    #expect(TileCoordinate(zoom: TileCoordinate.maxZoom + 1, x: 0, y: 0) == nil)
    #expect(TileCoordinate(zoom: 42, x: (1 << 42) - 1, y: 0) != nil)
    #expect(TileCoordinate(zoom: 42, x: 1 << 42, y: 0) == nil)
  }

  @Test func deepestLevelStillResolvesNeighbouringPixels() {
    let tile = TileCoordinate(zoom: TileCoordinate.doubleLimit, x: (1 << 42) - 1, y: 0)!
    let viewport = Viewport(tile: tile)
    let columns = (0..<256).map { viewport.real(column: $0) }
    #expect(Set(columns).count == 256)
    #expect(viewport.relativePixelSize > 1e-15)
  }
}
