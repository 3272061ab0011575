import Server
import Synchronization
import WebSocket

/// The I/O around one `CompareMachine`: its inbox, its viewers' sockets, its token and when it
/// was last watched.
///
/// Any thread may `send`; the game loop runs `advance` as a `StepJob` charged to `client` (the
/// group's creator), one at a time and only while `wantsTick`: a paused group costs nothing.
final class CompareGroup: @unchecked Sendable {
  let id: String
  let tokenHash: String
  /// Who made it, and pays for its steps.
  let client: ClientKey
  let kind: String
  /// The last tick there is to show.
  let end: UInt64
  /// How many panes it has.
  let paneCount: Int
  private let inbox: ViewerInbox<CompareMachine<WebSocket>.Command>
  /// Seconds since 1970 since which nobody watches; nil while someone does.
  private let idle: Mutex<(viewers: Int, since: Double?)>
  // Owned by the game loop.
  private var machine: CompareMachine<WebSocket>

  init(
    id: String, tokenHash: String, client: ClientKey, kind: String, panes: [ComparePane],
    end: UInt64, readouts: [String]? = nil, ambient: (pane: ComparePane, end: UInt64)? = nil,
    now: Double, wake: @escaping @Sendable () -> Void = {}
  ) {
    self.id = id
    self.tokenHash = tokenHash
    self.client = client
    self.kind = kind
    self.end = end
    self.paneCount = panes.count
    self.inbox = ViewerInbox(busy: false, wake: wake)
    self.idle = Mutex((0, now))
    self.machine = CompareMachine(
      id: id, panes: panes, end: end, readouts: readouts, ambient: ambient)
  }

  var isClosed: Bool { inbox.isClosed }

  /// Seconds since 1970 since which nobody watches; nil while someone does.
  var idleSince: Double? { idle.withLock { $0.since } }

  /// Queues a viewer's command for the next tick.
  func send(_ command: CompareMachine<WebSocket>.Command) {
    inbox.send(command)
  }

  /// A viewer joins; it is greeted on the next tick.
  func join(_ socket: WebSocket) {
    idle.withLock { $0 = ($0.viewers + 1, nil) }
    send(.join(socket))
  }

  /// A viewer left at `now`.
  func leave(_ socket: WebSocket, now: Double) {
    idle.withLock { $0 = ($0.viewers - 1, $0.viewers > 1 ? nil : now) }
    send(.leave(socket))
  }

  /// Ends the group (nobody watched it for too long): a job of it stops within one step.
  func close() {
    inbox.close()
  }
}

extension CompareGroup: ViewerWork {
  var jobLabel: String { "compare" }

  var wantsTick: Bool {
    inbox.wantsTick
  }

  func advance(mayStepAgain: () -> Bool) {
    guard !isClosed else { return }
    defer { inbox.settle(busy: machine.wantsTick) }
    machine.tick(
      inbox.take(), mayStepAgain: mayStepAgain,
      perform: { action in
        switch action {
        case .send(let bytes, let viewers, let latestOnly):
          let text = String(decoding: bytes, as: UTF8.self)
          if latestOnly {
            // NB: only an encoded message may replace an older one in the socket's queue.
            let encoded = EncodedMessage(.text(text))
            for socket in viewers { socket.send(encoded, latestOnly: true) }
          } else {
            for socket in viewers { socket.send(.text(text)) }
          }
        case .fail(let reason, let viewers):
          // A recording's log can no longer be read: every viewer is told, and the group ends.
          inbox.close()
          for socket in viewers {
            socket.send(.error(ClientError("recording-unavailable", reason)))
            socket.close(.internalError, reason: "recording unreadable")
          }
        }
      })
  }
}
