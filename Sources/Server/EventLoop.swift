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
  /// Channels by descriptor.
  // NB: loop state is touched only on the loop's thread, without nested accesses, so the
  // run-time exclusivity checks are turned off for what every event reads.
  @exclusivity(unchecked) private var channels: [Channel?] = []
  @exclusivity(unchecked) private var running = true
  /// Open HTTP connections on this loop, read by other loops' listeners to spread the load.
  let connectionCount = Atomic<Int>(0)
  private var lastTimerCheck = MonotonicTime.zero
  private var dateSecond = -1
  /// The `Date` value for responses, as bytes, refreshed each second.
  @exclusivity(unchecked) private(set) var date: [UInt8] = []
  /// Scratch space for reads, shared by the loop's channels.
  let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)

  /// How often channels' timers are checked.
  static let timerInterval: Duration = .milliseconds(100)
  static let timerNanoseconds = MonotonicTime.nanoseconds(in: timerInterval)

  init(index: Int) throws {
    self.index = index
    self.poller = try Poller()
    refreshDate()
  }

  deinit {
    readBuffer.deallocate()
    poller.deallocate()
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
    let slot = Int(channel.fd)
    if slot >= channels.count {
      channels.append(
        contentsOf: repeatElement(nil, count: max(slot + 1, channels.count * 2) - channels.count))
    }
    channels[slot] = channel
    poller.add(channel.fd, events: events)
  }

  /// Stops watching a channel's descriptor, keeping the channel and its timers.
  func unwatch(_ channel: Channel) {
    poller.remove(channel.fd)
  }

  /// Watches a channel's descriptor again after `unwatch`.
  func watch(_ channel: Channel, events: PollEvents) {
    poller.add(channel.fd, events: events)
  }

  func modify(_ channel: Channel, events: PollEvents) {
    poller.modify(channel.fd, events: events)
  }

  /// Hands a descriptor to another channel (a connection changing protocol).
  func replace(_ old: Channel, with new: Channel) {
    channels[Int(old.fd)] = new
  }

  func deregister(_ channel: Channel) {
    let slot = Int(channel.fd)
    if slot < channels.count, channels[slot] === channel { channels[slot] = nil }
    poller.remove(channel.fd)
  }

  /// Every registered channel, for timers and shutdown.
  private var allChannels: [Channel] { channels.compactMap { $0 } }

  /// The loop's body; returns after `stop`.
  func run() {
    EventLoop.current = self
    var fds = [Int32](repeating: 0, count: 256)
    var events = [PollEvents](repeating: [], count: 256)
    var moreTasks = false
    while running {
      // Tasks left from the last turn: look at the sockets without sleeping, then run them.
      let timeout = moreTasks ? Duration.zero : EventLoop.timerInterval
      let count = poller.wait(into: &fds, &events, timeout: timeout)
      for i in 0..<count {
        if fds[i] == poller.wakeFD {
          poller.drainWake()
          continue
        }
        let slot = Int(fds[i])
        if slot < channels.count { channels[slot]?.ready(events[i]) }
      }
      moreTasks = runTasks()
      let now = MonotonicTime.now()
      if now.nanoseconds &- lastTimerCheck.nanoseconds >= EventLoop.timerNanoseconds {
        lastTimerCheck = now
        refreshDate()
        for channel in allChannels { channel.checkTimers(now: now) }
      }
    }
  }

  /// Asks every channel to finish and close.
  func beginShutdown() {
    for channel in allChannels { channel.beginShutdown() }
  }

  func stop() {
    running = false
  }

  /// Runs the tasks queued so far, not those they or other threads queue meanwhile, so that
  /// a stream of tasks arriving faster than they run (frames to many slow sockets on a loaded
  /// machine) never keeps the loop from its sockets and timers. Returns whether more are queued.
  private func runTasks() -> Bool {
    // NB: taking the array and leaving an empty one allocates nothing; removeAll(keepingCapacity:)
    // on the shared buffer would allocate a new one on every turn of the loop.
    let tasks = queue.withLock { tasks in
      let taken = tasks
      tasks = []
      return taken
    }
    for task in tasks { task() }
    return !tasks.isEmpty && !queue.withLock { $0.isEmpty }
  }

  private func refreshDate() {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    let second = Int(now.tv_sec)
    if second != dateSecond {
      dateSecond = second
      date = Array(HTTPDate.format(Int64(second)).utf8)
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
