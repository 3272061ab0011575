import Dispatch
import Testing

@testable import Tiles

@Suite struct PerturbationTests {
  @Test(arguments: [
    (-0.743643887037151, 0.131825904205330, 500), (-0.1011, 0.9563, 300), (0.0, 1.0, 200),
  ])
  func switchOverTilesLookTheSameFromBothSides(cx: Double, cy: Double, iterations: Int) {
    let tile = DeepTileSupport.tile(zoom: TileCoordinate.doubleLimit, cx: cx, cy: cy)
    let plain = EscapeTimeKernel.simd4.render(
      Viewport(tile: tile), maxIterations: iterations, threads: 2)
    let deep = DeepTileSupport.deepField(tile, iterations: iterations)
    let differing = DeepTileSupport.mismatches(plain, deep)
    print("switch-over \(tile): \(differing) differ, total \(plain.totalIterations) vs \(deep.totalIterations)")
    #expect(differing <= plain.counts.count / 1000, "\(differing) of 65536 pixels differ")
  }
}
