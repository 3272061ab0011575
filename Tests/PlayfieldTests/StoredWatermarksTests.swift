import JSON
import Testing

@testable import Playfield

/// The `stored` watermark's rules: a connection's inputs settle in order, when the log is
/// committed through their tick, or at once when refused with nothing before them waiting.
@Suite struct StoredWatermarksTests {
  final class Peer: Sendable {}

  typealias Marks = StoredWatermarks<Peer>

  /// A `flush` answer as text: the notice told now, "waiting" or "too many".
  static func answer(_ answer: Marks.FlushAnswer) -> String {
    switch answer {
    case .now(let notice): told([notice])[0]
    case .waiting: "waiting"
    case .tooMany: "too many"
    }
  }

  static func told(_ notices: [Marks.Notice]) -> [String] {
    notices.map { "\($0.inputs)@\($0.tick.map(String.init) ?? "-") \($0.id?.description ?? "-")" }
  }

  @Test func inputsSettleWhenTheirTickIsStoredInOrder() {
    var marks = Marks()
    let a = Peer()
    let b = Peer()
    for _ in 0..<3 { marks.accepted(by: a) }
    marks.accepted(by: b)
    #expect(marks.applied(logged: 2, refused: 0, by: a, at: 5).isEmpty)
    #expect(marks.applied(logged: 1, refused: 0, by: b, at: 5).isEmpty)
    // a's third, refused at tick 6, waits behind its two logged ones.
    #expect(marks.applied(logged: 0, refused: 1, by: a, at: 6).isEmpty)
    #expect(marks.stored(through: 4).isEmpty)
    let notices = marks.stored(through: 5)
    #expect(Set(Self.told(notices)) == ["3@5 -", "1@5 -"])
    #expect(marks.stored(through: 9).isEmpty)
  }

  @Test func aRefusedInputWithNothingBeforeItSettlesAtOnce() {
    var marks = Marks()
    let a = Peer()
    marks.accepted(by: a)
    #expect(Self.told(marks.applied(logged: 0, refused: 1, by: a, at: 2)) == ["1@- -"])
  }

  @Test func aFlushIsAnsweredOnceEveryInputBeforeItIsStored() {
    var marks = Marks()
    let a = Peer()
    // Nothing sent: answered at once.
    #expect(Self.answer(marks.flush(a, id: "f0")) == "0@- \"f0\"")
    marks.accepted(by: a)
    marks.accepted(by: a)
    #expect(Self.answer(marks.flush(a, id: "f1")) == "waiting")
    #expect(marks.applied(logged: 1, refused: 0, by: a, at: 3).isEmpty)
    // The first stored: the watermark moves, the flush still waits for the second.
    #expect(Self.told(marks.stored(through: 3)) == ["1@3 -"])
    #expect(marks.applied(logged: 1, refused: 0, by: a, at: 4).isEmpty)
    #expect(Self.told(marks.stored(through: 4)) == ["2@4 \"f1\""])
  }

  @Test func anInputNotQueuedAfterAllIsNotWaitedFor() {
    var marks = Marks()
    let a = Peer()
    marks.accepted(by: a)
    marks.accepted(by: a)
    marks.withdrawn(by: a)
    #expect(marks.applied(logged: 1, refused: 0, by: a, at: 1).isEmpty)
    #expect(Self.answer(marks.flush(a, id: 7)) == "waiting")
    #expect(Self.told(marks.stored(through: 1)) == ["1@1 7"])
  }

  @Test func aClientThatLeftIsToldNothing() {
    var marks = Marks()
    let a = Peer()
    marks.accepted(by: a)
    #expect(marks.applied(logged: 1, refused: 0, by: a, at: 1).isEmpty)
    marks.left(a)
    #expect(marks.stored(through: 1).isEmpty)
  }

  @Test("a connection's flushes wait at most 16 at once; the next is refused, and answered ones make room")
  func waitingFlushesAreBounded() {
    var marks = Marks()
    let a = Peer()
    marks.accepted(by: a)
    for number in 0..<Marks.maxWaitingFlushes {
      #expect(Self.answer(marks.flush(a, id: .number(Double(number)))) == "waiting")
    }
    #expect(Self.answer(marks.flush(a, id: "one too many")) == "too many")
    #expect(marks.applied(logged: 1, refused: 0, by: a, at: 1).isEmpty)
    let answered = marks.stored(through: 1).compactMap(\.id)
    #expect(answered == (0..<Marks.maxWaitingFlushes).map { JSONValue.number(Double($0)) })
    #expect(Self.answer(marks.flush(a, id: "again")) == "1@- \"again\"")
  }
}
