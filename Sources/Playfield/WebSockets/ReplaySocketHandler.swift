import JSON
import Server
import Simulation
import Storage
import Synchronization
import WebSocket

/// `/ws/replays/ID`: plays a stored session from its first tick for one viewer, who sends
/// `play`, `pause`, `speed {value}` and `seek {tick}`.
final class ReplaySocketHandler: WebSocketHandler {
  let sessionID: String
  let journal: StorageJournal
  let replays: ReplayRegistry
  /// Where the log's start is read (a store worker, charged to `client`).
  let storeCalls: StoreCalls
  /// Inputs read from the log at a time: what one replay holds of it.
  let chunkSize: Int
  /// Who watches: the replay's steps are charged to this client.
  let client: ClientKey
  private let replay = Mutex<ReplaySession?>(nil)
  /// Whether the viewer left, perhaps before the replay finished loading.
  private let left = Mutex(false)

  init(
    sessionID: String, journal: StorageJournal, replays: ReplayRegistry, storeCalls: StoreCalls,
    chunkSize: Int, client: ClientKey
  ) {
    self.storeCalls = storeCalls
    self.client = client
    self.sessionID = sessionID
    self.journal = journal
    self.replays = replays
    self.chunkSize = chunkSize
  }

  func opened(_ socket: WebSocket) {
    // A place first, so refused replays never read their log; admitted ones read it a chunk
    // at a time as they play.
    switch replays.reserve(address: client.address) {
    case .full?:
      return fail(socket, "too many replays are playing; try again later")
    case .address?:
      return fail(
        socket,
        "your address has \(replays.perAddress) replays playing or loading, the most one may "
          + "(--replays-per-address); close one first")
    case nil:
      break
    }
    // Reading the log may take a while: on a store worker, not on the event loop.
    let refusal = storeCalls.run(
      client: client, { [self] in load(socket) },
      expired: { [self] _ in
        replays.cancel(address: client.address)
        fail(socket, "the database is not answering in time (--store-call-wait); try again later")
      })
    if refusal != nil {
      replays.cancel(address: client.address)
      fail(socket, "too many requests are waiting for the database; try again later")
    }
  }

  /// Reads the stored session and the start of its log, and starts the replay.
  private func load(_ socket: WebSocket) {
    do {
      guard
        let recording = try StoredRecording.read(
          journal: journal, id: sessionID, chunkSize: chunkSize)
      else {
        replays.cancel(address: client.address)
        return fail(socket, "no stored session \(sessionID)")
      }
      let session = ReplaySession(
        recording: recording.readingOn(storeCalls, for: client), socket: socket, client: client,
        wake: replays.wake)
      // NB: known before it is added: its hello may reach the viewer, and the viewer's first
      // command come back, before the next line here runs.
      replay.withLock { $0 = session }
      replays.add(session)
      // NB: a viewer who left while the log loaded must not leave a replay playing to nobody.
      if left.withLock({ $0 }) { session.send(.close) }
    } catch {
      replays.cancel(address: client.address)
      fail(socket, "the replay cannot start: \(APIError.told(error))")
    }
  }

  func received(_ message: WebSocketMessage, on socket: WebSocket) {
    switch command(message) {
    case .success(let command):
      guard let session = replay.withLock({ $0 }) else {
        socket.send(.error(ClientError("not-ready", "the replay is still loading")))
        return
      }
      session.send(.replay(command))
    case .failure(let error):
      socket.send(.error(error))
    }
  }

  func closed(_ socket: WebSocket, code: WebSocketCloseCode?, reason: String) {
    left.withLock { $0 = true }
    replay.withLock { $0 }?.send(.close)
  }

  func command(_ message: WebSocketMessage) -> Result<ReplayMachine.Command, ClientError> {
    PlaybackMessage.parse(message).flatMap { type, parsed in
      switch type {
      case "play": .success(.play)
      case "pause": .success(.pause)
      case "speed": PlaybackMessage.speed(in: parsed).map { .speed($0) }
      case "seek": PlaybackMessage.tick(in: parsed).map { .seek($0) }
      default: .failure(PlaybackMessage.unknown(type, known: "play, pause, speed or seek"))
      }
    }
  }

  private func fail(_ socket: WebSocket, _ text: String) {
    socket.send(.error(ClientError("replay-unavailable", text)))
    socket.close(.normal, reason: "replay unavailable")
  }
}
