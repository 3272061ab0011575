extension StreetSoccer {
  /// The computer players. Each is a pure function of the board, the die and (for the
  /// novice) the seeded whims, so a session replays exactly.
  enum Opponent {
    /// Plays the strong player searches: judgements of plays, its own and the replies'.
    static let strongBudget = 30_000
    /// Plays in the strong player's beam over its own turn.
    static let strongWidth = 12
    /// Its best own turns whose replies it weighs over the six faces of the die.
    static let strongCandidates = 6
    /// Plays in the beam over each reply.
    static let replyWidth = 3
    /// Plays in the defensive player's beam.
    static let defensiveWidth = 8
    /// The novice's chance of a random move instead of its greedy choice.
    static let noviceWhim = 0.3

    /// The moves `player` chooses for `side` with `die` on `board`; always a turn the referee
    /// accepts.
    static func turn(
      for player: Player, start: Play, referee: Referee, whims: inout SeededGenerator
    ) -> [Move] {
      switch player {
      case .human, .novice:
        return novice(start: start, referee: referee, whims: &whims)
      case .defensive:
        let evaluator = Evaluator(referee: referee, weights: .cautious)
        var search = TurnSearch(referee: referee, budget: .max)
        let nodes = search.run(from: start, width: defensiveWidth, judge: evaluator.judge)
        return nodes.first?.moves.moves ?? clearance(start: start, referee: referee)
      case .strong:
        return strong(start: start, referee: referee)
      }
    }

    /// Expectimax over one turn and the opponent's reply: the best own turns by the beam,
    /// each judged by the average, over the die's six faces, of the board after the
    /// opponent's best reply with that face. Bounded by a budget of judged plays, not time.
    static func strong(start: Play, referee: Referee) -> [Move] {
      let side = start.side
      let evaluator = Evaluator(referee: referee, weights: .balanced)
      var search = TurnSearch(referee: referee, budget: strongBudget)
      let own = search.run(from: start, width: strongWidth, judge: evaluator.judge)
      let candidates = own.prefix(strongCandidates)
      var best: (value: Double, moves: MoveCodes)?
      for (index, candidate) in candidates.enumerated() {
        // The opponent plays from the board the candidate leaves: after a goal, its kick-off.
        let reply = Play(
          board: candidate.play.scored ? referee.kickOff(by: side.other) : candidate.play.board,
          side: side.other, points: 0, mayShoot: !candidate.play.scored)
        var expected = candidate.play.scored ? 1.0 : 0
        for face in 1...6 {
          // NB: the budget left is shared evenly by the reply searches still to come.
          let searchesLeft = (candidates.count - index) * 6 - (face - 1)
          let share = max(1, search.budget / searchesLeft)
          var replies = TurnSearch(referee: referee, budget: share)
          var withFace = reply
          withFace.points = face
          let answers = replies.run(from: withFace, width: replyWidth, judge: evaluator.judge)
          search.budget -= share - replies.budget
          guard let answer = answers.first else { continue }
          // Its best answer, judged with this side to play next (a goal counts −1).
          expected += answerValue(answer.play, for: side, evaluator: evaluator) / 6
        }
        if best == nil || expected > best!.value { best = (expected, candidate.moves) }
      }
      return best?.moves.moves ?? clearance(start: start, referee: referee)
    }

    /// The value for `side` of the opponent's finished turn, with `side` to play next.
    private static func answerValue(_ play: Play, for side: Side, evaluator: Evaluator)
      -> Double
    {
      guard play.scored else { return evaluator.value(of: play.board, for: side, toMove: side) }
      let kickOff = evaluator.referee.kickOff(by: side)
      return -1 + evaluator.value(of: kickOff, for: side, toMove: side, kickOff: true)
    }

    /// Move by move: mostly the move whose board is best for a short-sighted judgement (its
    /// own chances only, never the opponent's), sometimes any move at all, and sometimes it
    /// stops early.
    static func novice(start: Play, referee: Referee, whims: inout SeededGenerator) -> [Move] {
      let side = start.side
      let evaluator = Evaluator(referee: referee, weights: .balanced)
      var play = start
      var moves: [Move] = []
      while play.points > 0, !play.scored {
        var options: [(move: Move, play: Play)] = []
        referee.forEachLegalMove(in: play) { move, result in
          var next = play
          referee.apply(move, lane: Board.lane(side, move.piece), result: result, to: &next)
          options.append((move, next))
        }
        guard !options.isEmpty, whims.nextUnit() >= 0.1 else { break }
        var chosen = options[0]
        if whims.nextUnit() < noviceWhim {
          chosen = options[whims.next(below: options.count)]
        } else {
          var bestValue = -Double.infinity
          for option in options {
            let value = evaluator.naiveValue(option.play)
            if value > bestValue {
              chosen = option
              bestValue = value
            }
          }
        }
        moves.append(chosen.move)
        play = chosen.play
      }
      guard (try? referee.canEnd(play, from: start.board)) != nil else {
        return clearance(start: start, referee: referee)
      }
      return moves
    }

    /// A turn that is always legal: nothing, or, when the goalkeeper must clear the ball, his
    /// first legal kick out of the area.
    static func clearance(start: Play, referee: Referee) -> [Move] {
      guard (try? referee.canEnd(start, from: start.board)) == nil else { return [] }
      var kick: Move?
      referee.forEachLegalMove(in: start) { move, result in
        guard kick == nil, move.kind == .kick else { return }
        var play = start
        referee.apply(move, lane: Board.lane(start.side, move.piece), result: result, to: &play)
        if (try? referee.canEnd(play, from: start.board)) != nil { kick = move }
      }
      return kick.map { [$0] } ?? []
    }
  }
}
