extension StreetSoccer {
  /// A beam search over the orders of one side's turn: at each depth every move of the best
  /// `width` plays so far, deduplicated by board, judged by `judge` as if the turn ended
  /// there; the plays to go on from are ranked by what `judge` says they promise.
  /// Deterministic: moves come in the referee's order and ties keep it.
  struct TurnSearch {
    /// A play reached by some moves, and its value as a finished turn.
    struct Node {
      var play: Play
      var moves: MoveCodes
      var value: Double
      /// What it promises if the turn goes on.
      var promise: Double
    }

    let referee: Referee
    /// Plays whose value may still be judged; the search stops widening when none are left.
    var budget: Int

    /// Every distinct play the search reached (the turn with no move included) that may end
    /// the turn, best first.
    mutating func run(
      from root: Play, width: Int, judge: (Play) -> (value: Double, promise: Double)
    ) -> [Node] {
      let board = root.board
      let side = root.side
      let (value, promise) = judge(root)
      var reached = [Node(play: root, moves: MoveCodes(), value: value, promise: promise)]
      budget -= 1
      var frontier = reached
      var seen: Set<Board> = [board]
      for _ in 0..<root.points {
        var next: [Node] = []
        for node in frontier where budget > 0 {
          referee.forEachLegalMove(in: node.play) { move, result in
            var child = node.play
            referee.apply(move, lane: Board.lane(side, move.piece), result: result, to: &child)
            guard child.scored || seen.insert(child.board).inserted else { return }
            budget -= 1
            var moves = node.moves
            moves.append(move)
            let (value, promise) = judge(child)
            next.append(Node(play: child, moves: moves, value: value, promise: promise))
          }
        }
        guard !next.isEmpty else { break }
        reached += next
        // The plays to go on from: those with the best prospects, a goal in reach first.
        var open = next.filter { !$0.play.scored && $0.play.points > 0 }
        open.sortBest(byPromise: true)
        frontier = Array(open.prefix(width))
        if frontier.isEmpty { break }
      }
      reached = reached.filter { (try? referee.canEnd($0.play, from: board)) != nil }
      reached.sortBest()
      return reached
    }
  }

  /// Up to 8 moves in 16 bits each, so that search nodes hold their moves without the heap.
  struct MoveCodes: Sendable {
    private var codes = SIMD8<UInt16>(repeating: 0)
    private(set) var count = 0

    /// Adds a move (at most 8).
    mutating func append(_ move: Move) {
      let kind = UInt16(Move.Kind.allCases.firstIndex(of: move.kind)!)
      codes[count] =
        kind << 13 | UInt16(move.piece) << 10 | UInt16(move.to.x + 1) << 4 | UInt16(move.to.y)
      count += 1
    }

    /// The moves in order.
    var moves: [Move] {
      (0..<count).map { index in
        let code = codes[index]
        return Move(
          Move.Kind.allCases[Int(code >> 13)], piece: Int(code >> 10 & 7),
          to: Square(x: Int(code >> 4 & 63) - 1, y: Int(code & 15)))
      }
    }
  }
}

extension Array where Element == StreetSoccer.TurnSearch.Node {
  /// Sorts by value (or by promise), best first; equal keys keep their order, so the search
  /// does not depend on the sort algorithm.
  mutating func sortBest(byPromise: Bool = false) {
    var keys: [(key: Double, index: Int)] = []
    keys.reserveCapacity(count)
    for (index, node) in enumerated() {
      keys.append((byPromise ? node.promise : node.value, index))
    }
    keys.sort { $0.key > $1.key || ($0.key == $1.key && $0.index < $1.index) }
    self = keys.map { self[$0.index] }
  }
}
