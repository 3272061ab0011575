extension StreetSoccer {
  /// Everything that changes during a session.
  struct State: Codable, Sendable, Equatable {
    /// The pieces and the ball at the start of the turn being played.
    var board: Board
    /// The side to play (or that would play, once the match is over).
    var toMove: Side
    /// The die of the turn being played, 1 to 6; 0 while a roll is awaited or the match is over.
    var die: Int
    /// Whether the turn being played is a kick-off's (the match's first, or the one after a
    /// goal), which may not shoot.
    var kickOff: Bool
    /// Whether the match has ended.
    var over: Bool
    /// Turns confirmed in this match.
    var turnsPlayed: Int
    /// The match's number: 1, then one more at each rematch.
    var match: Int
    /// Whether home attacks the goal at x = columns (the teams change ends at each rematch).
    var homeAttacksRight: Bool
    /// Goals, shots, passes, tackles, possession and squares run, per side.
    var statistics: Statistics
    /// The side (0 home, 1 away) whose pass left the ball loose, until someone takes it; −1.
    var pendingPass: Int
    /// The tick at which the current turn's die became known (or the match ended).
    var turnStarted: UInt64
    /// The last confirmed turn, for animation.
    var last: LastTurn
    /// The kits the players chose, home's first.
    var kits: [Kit]
    /// The kits everyone sees, home's first: `kits` after the clash rule.
    var shown: [Kit]
    /// The dice.
    var dice: SeededGenerator
    /// The computer players' whims (the novice's random moves).
    var whims: SeededGenerator

    /// A session's start: match 1, home kicking off towards the right.
    init(config: Config, seed: UInt64) {
      dice = SeededGenerator(seed: seed)
      whims = SeededGenerator(seed: seed ^ 0x5EED_0F_C0_4D_7E_A4)
      kits = [config.homeKit, config.awayKit]
      shown = Kit.shown(home: config.homeKit, away: config.awayKit)
      board = Referee(pitch: config.pitch, homeAttacksRight: true).kickOff(by: .home)
      toMove = .home
      die = 0
      kickOff = true
      over = false
      turnsPlayed = 0
      match = 1
      homeAttacksRight = true
      statistics = Statistics()
      pendingPass = -1
      turnStarted = 0
      last = LastTurn()
      if config.dice == .server { die = 1 + dice.next(below: 6) }
    }
  }

  /// What each side has done in the match; every array holds home's count, then away's.
  struct Statistics: Codable, Sendable, Equatable {
    var goals = [0, 0]
    /// Shots: goals and saves.
    var shots = [0, 0]
    /// Passes kicked.
    var passes = [0, 0]
    /// Passes whose ball a teammate took next (at once, or later from the square).
    var completed = [0, 0]
    var tackles = [0, 0]
    /// Turns that ended with the side holding the ball.
    var possession = [0, 0]
    /// Squares its pieces stepped.
    var run = [0, 0]

    /// Every count in the order frames list them, with its name.
    var fields: [(String, [Int])] {
      [
        ("goals", goals), ("shots", shots), ("passes", passes), ("completed", completed),
        ("tackles", tackles), ("possession", possession), ("run", run),
      ]
    }

    /// Whether the counts could come from `turnsPlayed` turns.
    func isValid(turnsPlayed: Int) -> Bool {
      // NB: a move counts at most once, so no count passes the moves of the turns played.
      let most = StreetSoccer.maxMovesPerTurn * turnsPlayed
      return fields.allSatisfy { $0.1.count == 2 && $0.1.allSatisfy { (0...most).contains($0) } }
        && (0..<2).allSatisfy { goals[$0] <= shots[$0] && completed[$0] <= passes[$0] }
        && possession[0] + possession[1] <= turnsPlayed
    }
  }

  /// The last confirmed turn: who played it with which die, the board it began on, and each
  /// move with what it did. Empty (no moves, die 0) before the match's first turn.
  struct LastTurn: Codable, Sendable, Equatable {
    var side = Side.home
    var die = 0
    var kickOff = false
    var start = Board(pieces: SIMD16(repeating: Board.unused), ball: 0)
    var moves: [Move] = []
    var results: [Result] = []

    /// Whether it holds a turn that can have been played on this referee's pitch.
    func isValid(referee: Referee, turnsPlayed: Int) -> Bool {
      guard die != 0 else { return moves.isEmpty && results.isEmpty }
      guard turnsPlayed > 0, (1...6).contains(die), referee.isValid(start),
        moves.count == results.count, moves.count <= die
      else { return false }
      var play = Play(board: start, side: side, points: die, mayShoot: !kickOff)
      for (move, result) in zip(moves, results) {
        guard (try? referee.play(move, in: &play)) == result else { return false }
      }
      return true
    }
  }
}
