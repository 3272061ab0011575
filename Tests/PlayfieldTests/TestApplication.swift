import Foundation
import HTTP
import JSON
import Logging
import Synchronization
import Testing

@testable import Playfield
@testable import Server

/// A wall clock that moves only when a test says so.
final class ManualClock: Sendable {
  private let seconds = Mutex(1_763_780_000.0)

  var now: Double { seconds.withLock { $0 } }

  func advance(_ delta: Double) { seconds.withLock { $0 += delta } }
}

/// The whole `Application`, built from a test `Environment`: the repository's pages and
/// templates, a fresh database file, seeded ids, a manual clock and a manual game loop.
struct TestApplication {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().path

  let application: Application
  let clock: ManualClock
  let directory: String

  /// - Parameter database: false keeps sessions in memory only.
  init(database: Bool = true, configure: (inout Environment) -> Void = { _ in }) throws {
    let clock = ManualClock()
    directory = NSTemporaryDirectory() + "playfield-app-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    var logger = Logger(label: "test")
    logger.logLevel = .critical
    var environment = Environment(
      publicDirectory: Self.root + "/Public", templatesDirectory: Self.root + "/Templates",
      databasePath: database ? directory + "/playfield.db" : nil, logger: logger)
    let counter = Mutex<UInt8>(0)
    environment.random = { count in
      counter.withLock { next in
        (0..<count).map { _ in
          next &+= 1
          return next
        }
      }
    }
    environment.wallClock = { clock.now }
    environment.monotonicClock = { .zero }
    environment.gameLoop = .manual
    configure(&environment)
    self.application = try Application(environment: environment)
    self.clock = clock
  }

  /// Runs `count` game-loop ticks, moving the clock 1/60 s before each.
  func tick(_ count: Int = 1) {
    for _ in 0..<count {
      clock.advance(1.0 / 60)
      application.tick()
    }
  }

  /// Answers one request, waiting for a response finished on another thread.
  func request(
    _ method: HTTPMethod, _ target: String, headers: HTTPHeaders = HTTPHeaders(),
    json: JSONValue? = nil
  ) -> Response {
    var headers = headers
    var body: [UInt8] = []
    if let json {
      body = json.serialized()
      headers.set("Content-Type", "application/json")
      headers.set("Content-Length", String(body.count))
    }
    let request = Request(method: method, target: target, headers: headers, body: body)
    let context = RequestContext(remoteAddress: "127.0.0.1", serverAddress: "127.0.0.1:80")
    var response = reply(to: request, context: context)
    // NB: handed back as written: a connection lets go of what an answer holds then (a book
    // export's place), and a test keeps the answer after that. The worker that made the answer
    // may hold its own copy a moment longer: the hold goes once that copy has gone too.
    if var held: AnyObject = response.heldUntilWritten {
      response.heldUntilWritten = nil
      let deadline = ContinuousClock.now + .seconds(10)
      while !isKnownUniquelyReferenced(&held), ContinuousClock.now < deadline {
        usleep(1_000)
      }
    }
    return response
  }

  private func reply(to request: Request, context: RequestContext) -> Response {
    switch application.handle(request, context: context) {
    case .response(let response):
      return response
    case .later(let pending):
      let done = DispatchSemaphore(value: 0)
      let answer = Mutex<Response?>(nil)
      pending.whenDone { response in
        answer.withLock { $0 = response }
        done.signal()
      }
      // NB: a reply read on the game loop needs ticks; run them while waiting.
      while done.wait(timeout: .now() + .milliseconds(5)) == .timedOut { tick() }
      return answer.withLock { $0 }!
    case .webSocket:
      return Response(status: .switchingProtocols)
    }
  }

  /// The body of a JSON response.
  func json(_ method: HTTPMethod, _ target: String, _ body: JSONValue? = nil) throws -> JSONValue {
    try JSONValue.parse(request(method, target, json: body).body)
  }

  func shutdown() {
    application.shutdown()
    try? FileManager.default.removeItem(atPath: directory)
  }
}

extension Response {
  var text: String { String(decoding: body, as: UTF8.self) }
}
