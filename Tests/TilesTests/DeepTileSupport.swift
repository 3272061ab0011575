@testable import Tiles

/// Tiles around exactly known points, for the perturbation tests.
enum DeepTileSupport {
  /// The tile of level `zoom` that contains c = i, a Misiurewicz point on the boundary whose
  /// neighbourhood looks alike at every depth: X = floor(2^(Z+1)/3), Y = floor(2^Z/6).
  static func tileAtI(zoom: Int) -> TileCoordinate {
    let x = Limbs.divide(Limbs.shiftedLeft([1], by: zoom + 1), by: 3).0
    let y = Limbs.divide(Limbs.shiftedLeft([1], by: zoom), by: 6).0
    return TileCoordinate(zoom: zoom, x: TileIndex(limbs: x), y: TileIndex(limbs: y))!
  }

  /// The tile of a shallow level that contains (cx, cy).
  static func tile(zoom: Int, cx: Double, cy: Double) -> TileCoordinate {
    let side = 3.0 / Double(1 << zoom)
    return TileCoordinate(
      zoom: zoom, x: Int(((cx + 2) / side).rounded(.down)),
      y: Int(((1.5 - cy) / side).rounded(.down)))!
  }

  /// `tile` drawn by perturbation.
  static func deepField(
    _ tile: TileCoordinate, iterations: Int, bilinear: Bool = true, smooth: Bool = false
  ) -> EscapeField {
    let viewport = PerturbationViewport(tile: tile)
    let reference = PerturbationReference(viewport: viewport, maxIterations: iterations)
    return PerturbationKernel(usesBilinearSteps: bilinear).render(
      viewport, reference: reference, maxIterations: iterations, smooth: smooth, threads: 2)
  }

  /// How many counts of `a` and `b` differ by more than `tolerance`.
  static func mismatches(_ a: EscapeField, _ b: EscapeField, tolerance: Int = 0) -> Int {
    zip(a.counts, b.counts).filter { abs(Int($0) - Int($1)) > tolerance }.count
  }

  /// The count of pixel (column, row) of `tile` iterated directly in `BigFixed` with 192 bits
  /// to spare: c = (-2 + 3(2(256X + i) + 1)/2^(Z+9), 1.5 - 3(2(256Y + j) + 1)/2^(Z+9)).
  static func exactCount(_ tile: TileCoordinate, column: Int, row: Int, maxIterations: Int) -> Int {
    let limbs = 5 + (tile.zoom + 9) / 64
    func centre(_ index: TileIndex, _ offset: Int) -> BigFixed {
      let numerator = Limbs.multiplyAdd(
        Limbs.multiplyAdd(index.limbs, 512, UInt64(2 * offset + 1)), 3, 0)
      return BigFixed(numerator: numerator, overTwoToThe: tile.zoom + 9, limbCount: limbs)
    }
    let cx = centre(tile.x, column) - BigFixed(2, limbCount: limbs)
    let cy = BigFixed(numerator: [3], overTwoToThe: 1, limbCount: limbs) - centre(tile.y, row)
    return ReferenceOrbit(cx: cx, cy: cy, maxIterations: maxIterations).last
  }
}
