extension BouncingBalls {
  /// Everything that changes while the balls move.
  struct State: Codable, Sendable, Equatable {
    /// The balls in creation order; a ball's index never changes.
    var balls: [Ball]
    /// Randomness for radii of balls added without one.
    var random: SeededGenerator
    /// Ball–ball impacts during the last tick.
    var collisions: Int

    /// The start: `config.balls` balls on random spots of a lattice (so none overlap), with
    /// random radii, directions and speeds in the configured ranges.
    init(config: Config, seed: UInt64) {
      random = SeededGenerator(seed: seed)
      collisions = 0
      balls = []
      balls.reserveCapacity(config.balls)
      let spacing = config.latticeSpacing
      let columns = config.latticeColumns
      let originX = (config.width - Double(columns) * spacing) / 2
      let originY = (config.height - Double(config.latticeRows) * spacing) / 2
      for spot in Self.distinctSpots(config.balls, of: columns * config.latticeRows, using: &random)
      {
        let radius = random.next(in: config.radiusMin...config.radiusMax)
        let slack = spacing / 2 - radius - 0.5
        let x = originX + (Double(spot % columns) + 0.5) * spacing + random.next(in: -slack...slack)
        let y = originY + (Double(spot / columns) + 0.5) * spacing + random.next(in: -slack...slack)
        let direction = Self.randomDirection(using: &random)
        let speed = random.next(in: config.speedMin...config.speedMax)
        balls.append(
          Ball(
            x: x, y: y, vx: direction.x * speed, vy: direction.y * speed, radius: radius,
            mass: config.mass(radius: radius), color: balls.count % palette.count))
      }
    }

    /// `count` distinct integers from 0..<total in random order.
    private static func distinctSpots(
      _ count: Int, of total: Int, using random: inout SeededGenerator
    ) -> [Int] {
      if count * 2 > total {
        // Dense: a partial Fisher–Yates shuffle of every spot.
        var spots = Array(0..<total)
        for index in 0..<count {
          spots.swapAt(index, index + random.next(below: total - index))
        }
        return Array(spots[0..<count])
      }
      // Sparse: rejection sampling; NB: the set is only queried, never iterated.
      var taken: Set<Int> = []
      var spots: [Int] = []
      while spots.count < count {
        let spot = random.next(below: total)
        if taken.insert(spot).inserted { spots.append(spot) }
      }
      return spots
    }

    /// A uniformly random unit vector, by rejection from the unit disc (no trigonometry).
    private static func randomDirection(using random: inout SeededGenerator) -> Vector2 {
      while true {
        let x = random.next(in: -1...1)
        let y = random.next(in: -1...1)
        let lengthSquared = x * x + y * y
        if lengthSquared > 1e-6 && lengthSquared <= 1 {
          let length = lengthSquared.squareRoot()
          return Vector2(x: x / length, y: y / length)
        }
      }
    }
  }
}
