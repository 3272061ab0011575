import Foundation
import Testing

@testable import Storage

/// One process per SQLite file, checked with real processes: `StorageLockProbe` opens a store
/// in a process of its own.
@Suite struct DatabaseLockTests {
  /// The probe, built beside this test binary.
  static var probe: String {
    get throws {
      let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      let path = folder.appendingPathComponent("StorageLockProbe").path
      guard FileManager.default.isExecutableFile(atPath: path) else {
        throw Command.Failure(
          description: "\(path) is missing: build it with `swift build --build-tests`")
      }
      return path
    }
  }

  @Test func aSecondProcessIsRefusedAndToldWhoHoldsTheFile() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.file("playfield.db")
    let store = try SQLiteSessionStore(path: path, holder: "http://127.0.0.1:8080")
    let second = try Command.run(try Self.probe, [path, "http://127.0.0.1:9001"], timeout: 60)
    #expect(second.status == 3)
    #expect(
      second.output.hasPrefix(
        "the database \(path) is in use by another Playfield process (pid \(getpid()) on host "))
    #expect(second.output.contains(": http://127.0.0.1:8080); stop it, or give this one another"))
    #expect(second.output.split(separator: "\n").count == 1)

    store.describeHolder("http://127.0.0.1:8081")
    let third = try Command.run(try Self.probe, [path, "x"], timeout: 60)
    #expect(third.output.contains(": http://127.0.0.1:8081)"))
    withExtendedLifetime(store) {}
  }

  @Test func aKilledHolderLetsGoAndTheNextProcessOpens() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.file("playfield.db")
    let output = directory.file("probe.out")
    let holder = try Command.spawn(
      [try Self.probe, path, "http://10.0.0.5:9001", "--hold"], output: output)
    var status: Int32 = 0
    defer {
      kill(holder, SIGKILL)
      waitpid(holder, &status, 0)
    }
    let deadline = Date(timeIntervalSinceNow: 60)
    while (try? String(contentsOfFile: output, encoding: .utf8))?.hasPrefix("opened") != true {
      try #require(Date() < deadline, "the probe did not open the store within 60 s")
      Thread.sleep(forTimeInterval: 0.02)
    }

    let refused = try #require(throws: DatabaseLockError.self) {
      try SQLiteSessionStore(path: path)
    }
    guard case .inUse(let refusedPath, let who) = refused else {
      Issue.record("expected inUse, got \(refused)")
      return
    }
    #expect(refusedPath == path)
    #expect(who.hasPrefix("pid \(holder) on host ") && who.hasSuffix(": http://10.0.0.5:9001"))
    // Reading the file is still fine: a read-only store takes no lock.
    #expect(try SQLiteSessionStore(path: path, readOnly: true).listSessions() == [])

    kill(holder, SIGKILL)
    waitpid(holder, &status, 0)
    let store = try SQLiteSessionStore(path: path)
    #expect(try store.listSessions() == [])
  }

  @Test func storesOfOneProcessShareTheFileAndTheLastLetsGo() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.file("playfield.db")
    do {
      let first = try SQLiteSessionStore(path: path)
      let second = try SQLiteSessionStore(path: "\(directory.path)/./playfield.db")
      try first.createSession(StoreFixture.session("s"))
      #expect(try second.session(id: "s") != nil)
      let probe = try withExtendedLifetime(first) {
        try Command.run(try Self.probe, [path, "x"], timeout: 60)
      }
      #expect(probe.status == 3)
    }
    let after = try Command.run(try Self.probe, [path, "x"], timeout: 60)
    #expect(after.status == 0 && after.output == "opened\n")
  }

  /// A new descriptor of the lock file at `path`, locked. The lock may still be held for a
  /// moment by a child another test is spawning (the very race the test below is about), so
  /// it is asked for again for up to 10 s.
  static func lockDescriptor(_ path: String) throws -> Int32 {
    let descriptor = open(path, O_RDWR | O_CLOEXEC)
    try #require(descriptor >= 0)
    let deadline = Date(timeIntervalSinceNow: 10)
    while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      guard Date() < deadline else {
        close(descriptor)
        throw Command.Failure(description: "\(path) stayed locked for 10 s")
      }
      Thread.sleep(forTimeInterval: 0.01)
    }
    return descriptor
  }

  /// A child that another thread is spawning holds a copy of a closed store's lock descriptor
  /// until it execs: the next store of this process on the file waits for it, where it was
  /// refused as "in use by another Playfield process" naming this one (a CI run saw it). Here
  /// a second descriptor of this process stands for the child's copy, let go after 300 ms.
  @Test func aLockInThisProcesssOwnNameIsWaitedForBriefly() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.file("playfield.db")
    do { _ = try SQLiteSessionStore(path: path, holder: "http://127.0.0.1:8080") }
    let copy = try Self.lockDescriptor(path + ".lock")
    let released = Thread {
      Thread.sleep(forTimeInterval: 0.3)
      close(copy)
    }
    released.start()
    do {
      let store = try SQLiteSessionStore(path: path)
      #expect(try store.listSessions() == [])
    }
    // A lock in another name is refused, naming it, as before.
    let other = try Self.lockDescriptor(path + ".lock")
    defer { close(other) }
    _ = ftruncate(other, 0)
    _ = Array("pid 1 on host elsewhere\n".utf8).withUnsafeBytes {
      pwrite(other, $0.baseAddress, $0.count, 0)
    }
    let refused = #expect(throws: DatabaseLockError.self) { try SQLiteSessionStore(path: path) }
    guard case .inUse(_, let who)? = refused else {
      Issue.record("expected inUse, got \(String(describing: refused))")
      return
    }
    #expect(who == "pid 1 on host elsewhere")
  }

  @Test func aNewProcessOnAFileHandsBackItsPredecessorsLeases() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.file("playfield.db")
    do {
      let store = try SQLiteSessionStore(path: path)
      try store.createSession(
        StoreFixture.session("s"), lease: LeaseTerms(owner: "dead", now: 100, duration: 3600))
    }
    let store = try SQLiteSessionStore(path: path)
    #expect(try store.lease(sessionID: "s") == nil)
    let adopted = try store.acquireLease(
      sessionID: "s", LeaseTerms(owner: "new", now: 101, duration: 10))
    #expect(adopted.lease?.epoch == 2)
  }
}
