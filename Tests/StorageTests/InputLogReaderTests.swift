import Testing

@testable import Storage

@Suite("Reading a session's input log in bounded chunks")
struct InputLogReaderTests {
  /// A log of 3 inputs at every third tick from 1 to 298 (300 inputs) and one at tick 1000.
  static func log(_ sessionID: String) -> [LoggedInput] {
    var inputs: [LoggedInput] = []
    for tick in stride(from: Int64(1), through: 298, by: 3) {
      for seq in Int64(0)..<3 {
        inputs.append(
          LoggedInput(sessionID: sessionID, tick: tick, seq: seq, input: #"{"n":\#(inputs.count)}"#)
        )
      }
    }
    inputs.append(LoggedInput(sessionID: sessionID, tick: 1000, seq: 0, input: #"{"n":"last"}"#))
    return inputs
  }

  static func store(_ backend: Backend) throws -> (StoreFixture, [LoggedInput]) {
    let fixture = try StoreFixture(backend)
    try fixture.store.createSession(StoreFixture.session("s"))
    try fixture.store.createSession(StoreFixture.session("other"))
    let log = log("s")
    try fixture.store.appendInputs(log)
    try fixture.store.appendInputs(StoreFixture.inputs("other", count: 50))
    return (fixture, log)
  }

  /// Every input from tick `from` through `to`, asked tick by tick.
  static func read(_ reader: inout InputLogReader, from: Int64, through: Int64) throws
    -> [LoggedInput]
  {
    var read: [LoggedInput] = []
    for tick in from...through {
      let inputs = try #require(try reader.inputs(at: tick))
      #expect(inputs.allSatisfy { $0.tick == tick })
      read += inputs
    }
    return read
  }

  @Test(
    "yields exactly the stored inputs in order, across chunk boundaries, holding one chunk",
    arguments: Backend.allCases, [1, 2, 7, 64, 1000])
  func wholeLog(_ backend: Backend, chunkSize: Int) throws {
    let (fixture, log) = try Self.store(backend)
    defer { fixture.remove() }
    var reader = InputLogReader(store: fixture.store, sessionID: "s", chunkSize: chunkSize)
    #expect(try Self.read(&reader, from: 1, through: 1200) == log)
    #expect(reader.mostHeld <= chunkSize)
    #expect(reader.chunksRead >= log.count / chunkSize)
    #expect(try reader.inputs(at: 1201) == [])
  }

  @Test(
    "a restart (seek) reads from just after its tick, backwards and forwards",
    arguments: Backend.allCases)
  func seeks(_ backend: Backend) throws {
    let (fixture, log) = try Self.store(backend)
    defer { fixture.remove() }
    var reader = InputLogReader(store: fixture.store, sessionID: "s", chunkSize: 5)
    _ = try Self.read(&reader, from: 1, through: 200)
    reader.restart(after: 9)
    #expect(
      try Self.read(&reader, from: 10, through: 40) == log.filter { (10...40).contains($0.tick) })
    reader.restart(after: 250)
    #expect(try Self.read(&reader, from: 251, through: 1000) == log.filter { $0.tick > 250 })
    reader.restart(after: 0)
    #expect(try Self.read(&reader, from: 1, through: 1000) == log)
    #expect(reader.mostHeld <= 5)
  }

  @Test(
    "a reader that starts after a snapshot's tick skips what came before",
    arguments: Backend.allCases)
  func afterSnapshot(_ backend: Backend) throws {
    let (fixture, log) = try Self.store(backend)
    defer { fixture.remove() }
    var reader = InputLogReader(store: fixture.store, sessionID: "s", chunkSize: 4, after: 100)
    #expect(try Self.read(&reader, from: 101, through: 1000) == log.filter { $0.tick > 100 })
  }

  @Test(
    "skipped ticks are passed over, and another session's inputs never appear",
    arguments: Backend.allCases)
  func skipping(_ backend: Backend) throws {
    let (fixture, log) = try Self.store(backend)
    defer { fixture.remove() }
    var reader = InputLogReader(store: fixture.store, sessionID: "s", chunkSize: 4)
    #expect(try reader.inputs(at: 298) == log.filter { $0.tick == 298 })
    #expect(try reader.inputs(at: 1000) == [log.last!])
    var other = InputLogReader(store: fixture.store, sessionID: "none", chunkSize: 4)
    #expect(try other.inputs(at: 1) == [])
  }

  @Test(
    "without waiting, a busy store answers nil and the same tick is asked again",
    arguments: Backend.allCases)
  func busy(_ backend: Backend) throws {
    let (fixture, log) = try Self.store(backend)
    defer { fixture.remove() }
    var reader = InputLogReader(store: fixture.store, sessionID: "s", chunkSize: 2, wait: false)
    let whileBusy = try fixture.holdingReader { try reader.inputs(at: 1) == nil }
    #expect(whileBusy)
    #expect(try reader.inputs(at: 1) == Array(log[0..<3]))
    #expect(try Self.read(&reader, from: 2, through: 1000) == Array(log[3...]))
  }

  @Test(
    "a chunk read ahead on a copy is taken in order: no read at its boundary, two chunks held",
    // (A tick of the log has 3 inputs: at chunks of 8 and more, one tick never passes from less
    // than half the chunk used to its end, where the next chunk is needed.)
    arguments: Backend.allCases, [8, 13, 64])
  func readAhead(_ backend: Backend, chunkSize: Int) throws {
    let (fixture, log) = try Self.store(backend)
    defer { fixture.remove() }
    var reader = InputLogReader(store: fixture.store, sessionID: "s", chunkSize: chunkSize)
    var read: [LoggedInput] = []
    var aheadTaken = 0
    for tick in Int64(1)...1001 {
      if reader.wantsReadAhead {
        // As a store worker does: a copy reads, the reader takes the answer.
        let copy = reader
        let taken = reader.take(try #require(try copy.readNext()))
        #expect(taken)
        aheadTaken += 1
      }
      #expect(!reader.wouldRead || tick == 1, "the next chunk was there at tick \(tick)")
      read += try #require(try reader.inputs(at: tick, mayRead: tick == 1))
    }
    #expect(read == log)
    #expect(aheadTaken >= log.count / chunkSize - 1)
    #expect(reader.mostHeld <= 2 * chunkSize)
  }

  @Test("a chunk read before a restart, or taken already, is dropped", arguments: Backend.allCases)
  func staleReads(_ backend: Backend) throws {
    let (fixture, log) = try Self.store(backend)
    defer { fixture.remove() }
    var reader = InputLogReader(store: fixture.store, sessionID: "s", chunkSize: 4)
    _ = try Self.read(&reader, from: 1, through: 1)
    let copy = reader
    let chunk = try #require(try copy.readNext())
    let first = reader.take(chunk)
    let second = reader.take(chunk)
    #expect(first)
    #expect(!second, "taken once")
    let stale = try #require(try reader.readNext())
    reader.restart(after: 100)
    let afterSeek = reader.take(stale)
    #expect(!afterSeek, "read before the seek")
    #expect(try Self.read(&reader, from: 101, through: 1000) == log.filter { $0.tick > 100 })
  }

  @Test("the last tick of inputs and a bounded chunk query", arguments: Backend.allCases)
  func queries(_ backend: Backend) throws {
    let (fixture, log) = try Self.store(backend)
    defer { fixture.remove() }
    #expect(try fixture.store.lastInputTick(sessionID: "s") == 1000)
    #expect(try fixture.store.lastInputTick(sessionID: "none") == nil)
    let chunk = try fixture.store.inputs(
      sessionID: "s", after: LogPosition(tick: 1, seq: 1), limit: 3, wait: false)
    #expect(chunk == Array(log[2..<5]))
  }
}
