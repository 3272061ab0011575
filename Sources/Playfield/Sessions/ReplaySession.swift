import HTTP
import JSON
import Server
import Simulation
import Storage
import Synchronization
import WebSocket

/// The I/O around one viewer's `ReplayMachine`: its inbox and its socket.
///
/// Any thread may `send`; the game loop has `advance` run as a `StepJob` charged to `client`
/// (one at a time), and only while `wantsTick`: a paused or finished replay costs nothing.
final class ReplaySession: @unchecked Sendable {
  /// A viewer's command, or the end of the replay.
  enum Command: Sendable {
    case replay(ReplayMachine.Command)
    case close
  }

  let socket: WebSocket
  /// Who watches it, and pays for its steps.
  let client: ClientKey

  private let inbox: ViewerInbox<ReplayMachine.Command>
  // Owned by the game loop.
  private var machine: ReplayMachine

  /// Plays `recording` from its start to its end for the viewer on `socket`.
  init(
    recording: StoredRecording, socket: WebSocket, client: ClientKey,
    wake: @escaping @Sendable () -> Void = {}
  ) {
    self.socket = socket
    self.client = client
    self.inbox = ViewerInbox(busy: true, wake: wake)
    self.machine = ReplayMachine(
      id: recording.stored.id, start: recording.start, log: recording.log, end: recording.end)
  }

  var isClosed: Bool { inbox.isClosed }

  func send(_ command: Command) {
    switch command {
    case .close: inbox.close()
    case .replay(let command): inbox.send(command)
    }
  }

  /// Whether its next tick has anything to do.
  var wantsTick: Bool {
    inbox.wantsTick
  }

  /// Runs one tick of the replay, stepping while `mayStepAgain` allows, and sends what it asks.
  func advance(mayStepAgain: () -> Bool) {
    guard !isClosed else { return }
    defer { inbox.settle(busy: machine.wantsTick) }
    machine.tick(
      inbox.take(), mayStepAgain: mayStepAgain,
      perform: { action in
        switch action {
        case .send(let message, latestOnly: true):
          // NB: only an encoded message may replace an older one in the socket's queue.
          socket.send(
            EncodedMessage(.text(String(decoding: message.bytes, as: UTF8.self))), latestOnly: true)
        case .send(let message, latestOnly: false):
          socket.send(message)
        case .fail(let reason):
          inbox.close()
          socket.send(.error(ClientError("replay-unavailable", reason)))
          socket.close(.internalError, reason: "replay log unreadable")
        }
      })
  }
}
