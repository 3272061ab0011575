import Testing

@testable import Tiles

/// The nucleus search (`NucleusSearch`): where it finds a reference, that reference is one
/// period of a cycle, costs far fewer exact updates than the grid search, and gives the same
/// counts as exact iteration.
@Suite struct ReferenceSearchTests {
  static let seahorse = PerturbationLanesTests.seahorse

  /// Around c = i every orbit near the anchor's centre escapes after about 800 updates at
  /// 1e-300, so neither the centre nor any grid point lasts a cap of 10,000.
  @Test func aNucleusServesWhereNothingLastsTheCap() throws {
    let viewport = PerturbationViewport(tile: DeepTileSupport.tileAtI(zoom: 998))
    let nucleus = PerturbationReference(viewport: viewport, maxIterations: 10_000)
    let grid = PerturbationReference(viewport: viewport, maxIterations: 10_000, search: .grid)
    guard case .nucleus(let period) = nucleus.choice else {
      Issue.record("no nucleus: \(nucleus.choice)")
      return
    }
    #expect(nucleus.isPeriodic && nucleus.orbit.last == period)
    #expect(period > 700 && period < 900)
    #expect(
      (1..<period).allSatisfy { m in
        nucleus.orbit.x[m] * nucleus.orbit.x[m] + nucleus.orbit.y[m] * nucleus.orbit.y[m] <= 4
      })
    // Z_p is as good as 0: p updates from the nucleus return to it within 2^-24 of an offset
    // unit (divided by the derivative), far below what a pixel resolves.
    let residue = nucleus.orbit.end / NucleusSearch.derivative(nucleus.orbit)
    #expect(residue.log2Norm < Double(viewport.unitExponent) - 24)
    // The grid tries all 65 points; the nucleus needs the centre's orbit and one or two more.
    #expect(grid.updates > 60 * 700)
    #expect(nucleus.updates < 4 * period)
    let fields = [nucleus, grid].map {
      PerturbationKernel().render(viewport, reference: $0, maxIterations: 10_000, threads: 2)
    }
    #expect(Set(fields[0].counts).count > 10)
    #expect(DeepTileSupport.mismatches(fields[0], fields[1]) == 0)
  }

  /// A centre that lasts the cap stays the reference, as before the nucleus search.
  @Test func theCentreStaysWhenItLastsTheCap() {
    let viewport = PerturbationViewport(tile: DeepTileSupport.tileAtI(zoom: 334))
    let reference = PerturbationReference(viewport: viewport, maxIterations: 100)
    #expect(reference.choice == .centre && !reference.isPeriodic)
    #expect(reference.orbit.last == 100 && reference.updates == 100)
  }

  /// Counts around nucleus references equal exact iteration, on a grid of every 32nd pixel of
  /// the tiles the Python test checks (seahorse valley at 1e-30 takes a nucleus at 2,000).
  @Test(arguments: [(0, 2000), (1, 1000), (2, 2000)])
  func countsAroundANucleusAreExact(index: Int, iterations: Int) {
    let tile = [
      Self.seahorse, DeepTileSupport.tileAtI(zoom: 334), DeepTileSupport.tileAtI(zoom: 998),
    ][index]
    let viewport = PerturbationViewport(tile: tile)
    let reference = PerturbationReference(viewport: viewport, maxIterations: iterations)
    #expect(reference.isPeriodic, "\(reference.choice)")
    let field = PerturbationKernel().render(
      viewport, reference: reference, maxIterations: iterations, threads: 2)
    var wrong: [String] = []
    for sample in 0..<64 {
      let (i, j) = (sample % 8 * 32 + 16, sample / 8 * 32 + 16)
      let exact = DeepTileSupport.exactCount(tile, column: i, row: j, maxIterations: iterations)
      if Int(field.counts[j * 256 + i]) != exact {
        wrong.append("(\(i), \(j)): \(field.counts[j * 256 + i]) for \(exact)")
      }
    }
    #expect(wrong.isEmpty, "\(wrong)")
  }

}
