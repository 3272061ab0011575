import Testing

@testable import Apollonian

@Suite("Apollonian packing: counts and uniqueness")
struct PackingCountTests {
  /// The seed service's counts for levels 0 to 8 (DESIGN.md), the outer sphere included.
  static let seedCounts = [5, 10, 30, 90, 300, 990, 3330, 11160, 37530]

  @Test(arguments: 0...8) func countsMatchTheSeedService(level: Int) {
    #expect(ApollonianPacking(level: level).spheres.count == Self.seedCounts[level])
  }

  @Test func levelTenHolds383892Spheres() {
    let packing = ApollonianPacking(level: 10)
    #expect(packing.spheres.count == 383_892)
    #expect(packing.spheres.allSatisfy { $0.level == 0 || $0.radius >= 0.001 })
  }

  @Test func withoutAMinimumRadiusEachGenerationGrowsAsTheGroupDoes() {
    let packing = ApollonianPacking(level: 7, minimumRadius: 0)
    #expect(packing.generationCounts == [5, 5, 20, 60, 210, 690, 2340, 7830])
  }

  @Test func spheresComeInGenerationOrderWithTheSeedLevels() {
    let packing = ApollonianPacking(level: 4)
    #expect(packing.spheres[0].level == 0 && packing.spheres[0].radius == -1)
    #expect(packing.spheres[1...4].allSatisfy { $0.level == 1 })
    let levels = packing.spheres.map(\.level)
    #expect(levels == levels.sorted())
    #expect(levels.last == 5)
  }

  /// An independent walk: every inversion of every sphere, duplicates dropped through a set.
  /// The first-minimum rule must make the same spheres, each once, at the same generation.
  @Test func theFirstMinimumRuleMakesEachSphereOnceAndMissesNone() {
    var canonical: [[SpecialCoordinates]] = []
    ApollonianPacking.walk(level: 6, minimumRadius: 0) { coordinates, generation in
      if canonical.count <= generation { canonical.append([]) }
      canonical[generation].append(coordinates)
    }
    var seen = Set((0..<5).map(SpecialCoordinates.start))
    var frontier = Array(seen)
    var naive: [Set<SpecialCoordinates>] = [seen]
    for _ in 1...6 {
      var next: [SpecialCoordinates] = []
      for sphere in frontier {
        for index in 0..<5 {
          let image = sphere.reflected(at: index)
          if seen.insert(image).inserted { next.append(image) }
        }
      }
      naive.append(Set(next))
      frontier = next
    }
    #expect(canonical.count == naive.count)
    for (made, expected) in zip(canonical, naive) {
      #expect(made.count == Set(made).count)
      #expect(Set(made) == expected)
    }
  }

  @Test func reflectionIsAnInvolutionThatKeepsTheLorentzProduct() {
    let sphere = SpecialCoordinates(3, -1, 4, 1, 5)
    let other = SpecialCoordinates(2, 7, -1, 8, 2)
    for index in 0..<5 {
      #expect(sphere.reflected(at: index).reflected(at: index) == sphere)
      #expect(
        sphere.reflected(at: index).product(other.reflected(at: index))
          == sphere.product(other))
    }
  }

  @Test func theFirstMinimumIsUnique() {
    let tied = SpecialCoordinates(2, 1, 5, 1, 3)
    #expect(tied.isFirstMinimum(at: 1))
    #expect(!tied.isFirstMinimum(at: 3))
    #expect(!tied.isFirstMinimum(at: 0))
  }
}
