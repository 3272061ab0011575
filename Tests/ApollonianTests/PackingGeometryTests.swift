import Testing

@testable import Apollonian

@Suite("Apollonian packing: geometry")
struct PackingGeometryTests {
  static func distance(_ a: Sphere, _ b: Sphere) -> Double {
    let (dx, dy, dz) = (a.x - b.x, a.y - b.y, a.z - b.z)
    return (dx * dx + dy * dy + dz * dz).squareRoot()
  }

  /// Every sphere with its special coordinates and generation.
  static func walk(level: Int) -> [(SpecialCoordinates, Int, Sphere)] {
    var all: [(SpecialCoordinates, Int, Sphere)] = []
    ApollonianPacking.walk(level: level, minimumRadius: ApollonianPacking.seedMinimumRadius) {
      coordinates, generation in
      let ball = coordinates.ball
      all.append(
        (
          coordinates, generation,
          Sphere(x: ball.x, y: ball.y, z: ball.z, radius: ball.radius, level: 0)
        ))
    }
    return all
  }

  @Test func theStartIsTheOuterSphereAndFourEqualSpheresInside() {
    let spheres = ApollonianPacking(level: 0).spheres
    #expect(spheres[0] == Sphere(x: 0, y: 0, z: 0, radius: -1, level: 0))
    let inner = 1 / (1 + 1.5.squareRoot())
    for sphere in spheres[1...] {
      #expect(abs(sphere.radius - inner) < 1e-15)
      #expect(abs(sphere.reach - 1) < 1e-15)
    }
  }

  @Test(arguments: [3, 8]) func everySphereLiesInsideTheOuterOne(level: Int) {
    for sphere in ApollonianPacking(level: level).spheres.dropFirst() {
      #expect(sphere.radius > 0)
      #expect(sphere.reach <= 1 + 1e-12)
    }
  }

  @Test func noTwoSpheresOverlap() {
    let all = Self.walk(level: 5)
    for i in 1..<all.count {
      for j in (i + 1)..<all.count {
        let (a, b) = (all[i].2, all[j].2)
        #expect(Self.distance(a, b) >= (a.radius + b.radius) * (1 - 1e-9))
        #expect(all[i].0.product(all[j].0) <= -1)
      }
    }
  }

  /// Each sphere of generation n >= 1 fills a gap of four mutually tangent older spheres: the
  /// exact integer test finds exactly four, and they touch it in space to 1e-9 relative.
  @Test func eachChildIsTangentToTheFourSpheresItWasMadeFrom() {
    let all = Self.walk(level: 5)
    for (coordinates, generation, sphere) in all where generation >= 1 {
      #expect(coordinates.product(coordinates) == 1)
      let generators = all.filter { $0.1 < generation && $0.0.product(coordinates) == -1 }
      #expect(generators.count == 4)
      for (index, generator) in generators.enumerated() {
        let touching = abs(generator.2.radius + sphere.radius)
        #expect(abs(Self.distance(generator.2, sphere) - touching) <= 1e-9 * touching)
        for other in generators[(index + 1)...] {
          #expect(generator.0.product(other.0) == -1)
        }
      }
    }
  }

  @Test func theMinimumRadiusEndsBranches() {
    let coarse = ApollonianPacking(level: 8, minimumRadius: 0.01)
    #expect(coarse.spheres.dropFirst().allSatisfy { $0.radius >= 0.01 })
    #expect(coarse.spheres.count < ApollonianPacking(level: 8).spheres.count)
  }
}
