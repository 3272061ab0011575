import CPosix
import HTTP
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Something registered with an event loop: a listener or a connection.
protocol Channel: AnyObject {
  var fd: Int32 { get }
  /// The descriptor is readable, writable, or hung up (`Poller` event bits).
  func ready(_ events: PollEvents)
  /// Called a few times a second with the loop's time.
  func checkTimers(now: MonotonicTime)
  /// The server is stopping: finish what is in flight and close.
  func beginShutdown()
}

/// One thread that owns a poller and every channel registered with it.
///
/// Channels are touched only on the loop's thread. Other threads hand work over with
/// `execute`, which wakes the loop.
final class EventLoop: @unchecked Sendable {
  let index: Int
  private let poller: Poller
  private let queue = Mutex<[@Sendable () -> Void]>([])
  private var channels: [Int32: Channel] = [:]
  private var running = true
  private var lastTimerCheck = MonotonicTime.zero
  private var dateSecond = -1
  private(set) var date = ""
  /// Scratch space for reads, shared by the loop's channels.
  let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)

  /// How often channels' timers are checked.
  static let timerInterval: Duration = .milliseconds(100)

  init(index: Int) throws {
    self.index = index
    self.poller = try Poller()
    refreshDate()
  }

  deinit {
    readBuffer.deallocate()
  }

  /// Whether the caller is on this loop's thread.
  var inLoop: Bool { EventLoop.current === self }

  /// Runs `task` on the loop's thread, soon. Callable from any thread.
  func execute(_ task: @escaping @Sendable () -> Void) {
    let wasEmpty = queue.withLock { tasks in
      tasks.append(task)
      return tasks.count == 1
    }
    if wasEmpty { poller.wake() }
  }

  func register(_ channel: Channel, events: PollEvents) {
    channels[channel.fd] = channel
    poller.add(channel.fd, events: events)
  }

  func modify(_ channel: Channel, events: PollEvents) {
    poller.modify(channel.fd, events: events)
  }

  /// Hands a descriptor to another channel (a connection changing protocol).
  func replace(_ old: Channel, with new: Channel) {
    channels[old.fd] = new
  }

  func deregister(_ channel: Channel) {
    channels[channel.fd] = nil
    poller.remove(channel.fd)
  }

  var channelCount: Int { channels.count }

  /// The loop's body; returns after `stop`.
  func run() {
    EventLoop.current = self
    var fds = [Int32](repeating: 0, count: 256)
    var events = [PollEvents](repeating: [], count: 256)
    while running {
      let count = poller.wait(into: &fds, &events, timeout: EventLoop.timerInterval)
      for i in 0..<count {
        if fds[i] == poller.wakeFD {
          poller.drainWake()
          continue
        }
        channels[fds[i]]?.ready(events[i])
      }
      runTasks()
      let now = MonotonicTime.now()
      if now - lastTimerCheck >= EventLoop.timerInterval {
        lastTimerCheck = now
        refreshDate()
        for channel in Array(channels.values) { channel.checkTimers(now: now) }
      }
    }
  }

  /// Asks every channel to finish and close.
  func beginShutdown() {
    for channel in Array(channels.values) { channel.beginShutdown() }
  }

  func stop() {
    running = false
  }

  private func runTasks() {
    while true {
      let tasks = queue.withLock { tasks in
        let taken = tasks
        tasks.removeAll(keepingCapacity: true)
        return taken
      }
      if tasks.isEmpty { return }
      for task in tasks { task() }
    }
  }

  private func refreshDate() {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    let second = Int(now.tv_sec)
    if second != dateSecond {
      dateSecond = second
      date = HTTPDate.format(Int64(second))
    }
  }

  private static let threadCurrent = ThreadLocal()

  /// The loop running on this thread, if any.
  static var current: EventLoop? {
    get { threadCurrent.value }
    set { threadCurrent.value = newValue }
  }
}

/// A per-thread slot for the current event loop.
struct ThreadLocal: @unchecked Sendable {
  private let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  var value: EventLoop? {
    get {
      guard let raw = pthread_getspecific(key) else { return nil }
      return Unmanaged<EventLoop>.fromOpaque(raw).takeUnretainedValue()
    }
    nonmutating set {
      pthread_setspecific(key, newValue.map { Unmanaged.passUnretained($0).toOpaque() })
    }
  }
}

extension MonotonicTime {
  /// The monotonic clock's current reading. Only I/O code calls this.
  public static func now() -> MonotonicTime {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return MonotonicTime(nanoseconds: UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec))
  }
}
