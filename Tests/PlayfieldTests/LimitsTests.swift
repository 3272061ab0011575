import Testing

@testable import Playfield

/// Every limit is declared once (`Limit`); the command line sets it, `--help` lists it, and bad
/// values are refused naming the limit and what it allows.
@Suite struct LimitsTests {
  @Test func unsetLimitsAreTheirDefaults() {
    let limits = Limits()
    #expect(limits[.maxSessions] == 256)
    #expect(limits[.inputsPerSession] == 200_000)
    #expect(limits[.tileWait] == 10)
    #expect(limits[.headerTimeout] == 10 && limits[.bodyTimeout] == 20)
    #expect(limits[.tileCacheBytes] == 64 << 20)
  }

  @Test func theCommandLineSetsThemInEitherForm() throws {
    let limits = try Limits.parse([
      "--max-sessions", "3", "--tile-wait=0.5", "--inputs-per-session", "10",
      "--session-max-age", "86400",
    ])
    #expect(limits[.maxSessions] == 3)
    #expect(limits[.tileWait] == 0.5)
    #expect(limits[.inputsPerSession] == 10)
    #expect(limits[.sessionMaxAge] == 86_400)
    #expect(limits[.sessionsPerClient] == 16, "the others keep their defaults")
    #expect(try Limits.parse([]) == Limits())
  }

  @Test(arguments: [
    (["--max-sessions", "0"], "--max-sessions must be a whole number from 1 to 100000, not 0"),
    (["--max-sessions", "-5"], "--max-sessions must be a whole number from 1 to 100000, not -5"),
    (
      ["--max-sessions", "lots"], "--max-sessions must be a whole number from 1 to 100000, not lots"
    ),
    (["--max-sessions", "2.5"], "--max-sessions must be a whole number from 1 to 100000, not 2.5"),
    (["--max-sessions="], "--max-sessions must be a whole number from 1 to 100000, not nothing"),
    (["--tile-wait", "0"], "--tile-wait must be more than 0 and at most 3600 seconds, not 0"),
    (["--tile-wait", "nan"], "--tile-wait must be more than 0 and at most 3600 seconds, not nan"),
    (["--tile-wait", "inf"], "--tile-wait must be more than 0 and at most 3600 seconds, not inf"),
    (["--idle-pause", "-1"], "--idle-pause must be a number of seconds more than 0, not -1"),
    (
      ["--inputs-per-session"],
      "--inputs-per-session needs a value: a whole number from 1 to 10000000"
    ),
    (["--maximum-sessions", "3"], "unknown option --maximum-sessions"),
    (["3"], "unexpected argument 3"),
  ])
  func badValuesAreRefusedNamingTheLimit(arguments: [String], message: String) {
    #expect(throws: LimitError(message)) { try Limits.parse(arguments) }
  }

  @Test func helpListsEveryLimitWithItsDefaultAndFitsEightyColumns() {
    let help = Limits.helpText
    #expect(Limits.all.count == 73)
    #expect(Set(Limits.all.map(\.name)).count == Limits.all.count)
    for option in Limits.all {
      #expect(help.contains("--\(option.name) (default \(option.shownDefault))"), "\(option.name)")
      #expect(!option.help.isEmpty)
    }
    #expect(help.contains("--tile-wait (default 10 seconds)"))
    #expect(help.split(separator: "\n").allSatisfy { $0.count <= 80 })
  }

  @Test func theAppReadsThemFromTheEnvironment() throws {
    let app = try TestApplication(database: false) {
      $0.limits[.maxSessions] = 1
      $0.limits[.sessionsPerClient] = 1
    }
    defer { app.shutdown() }
    #expect(app.application.registry.limits.maxLive == 1)
    #expect(
      app.application.registry.limits.perAddress == 1,
      "one client's share times 4 families, but at most the address's share of --max-sessions")
  }

  @Test func theQueuesThatWereConstantsAreLimits() throws {
    let app = try TestApplication(database: false) {
      $0.limits[.storeCallQueue] = 3
      $0.limits[.bigHelloBytes] = 4096
      $0.limits[.bigHelloQueue] = 5
      $0.limits[.bigHelloWait] = 2.5
    }
    defer { app.shutdown() }
    #expect(app.application.storeCalls.capacity == 3)
    let hellos = app.application.registry.helloWork
    #expect(hellos.bigBytes == 4096)
    #expect(hellos.isBig(estimate: 4096, lastBytes: 0))
    #expect(hellos.isBig(estimate: 0, lastBytes: 5000))
    #expect(!hellos.isBig(estimate: 4095, lastBytes: 100))
    #expect(app.application.registry.limits.bigHelloQueue == 5)
    #expect(app.application.registry.limits.bigHelloWait == 2.5)
    let refusal = String(
      decoding: StoreCalls.refused(.init(tooManyFromClient: false, retryAfter: 1)).body,
      as: UTF8.self)
    #expect(refusal.contains("--store-call-queue"))
    let parsed = try Limits.parse(["--input-page-queue", "7", "--input-page-wait=3"])
    #expect(parsed[.inputPageQueue] == 7 && parsed[.inputPageWait] == 3)
  }
}
