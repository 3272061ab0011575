import Testing

@testable import Tiles

@Test func smoke() {
  let field = EscapeTimeKernel.simd4.render(
    Viewport(tile: TileCoordinate(zoom: 0, x: 0, y: 0)!), maxIterations: 200)
  #expect(field.totalIterations == 2_490_382)
}
