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

/// A channel whose reading its client's `ReadBudget` may stop for a turn.
protocol BudgetedChannel: Channel {
  /// A new turn: goes on with what the last one's budget stopped (held messages, then reads).
  func resumeReading()
}

/// One thread that owns a poller and every channel registered with it.
///
/// Channels are touched only on the loop's thread. Other threads hand work over with
/// `execute`, which wakes the loop.
///
/// It serves its connections in turns (wait for the sockets, read the ready ones, run the
/// handed-over work): in each turn, the connections of one client (an address group) together
/// read at most `readBudget`; those it stopped go first in the next turn.
final class EventLoop: @unchecked Sendable {
  let index: Int
  /// What one address group may read on this loop in one turn.
  let readBudget: ReadBudget
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
  /// Each address group's account of what it read, by group; a connection keeps its own
  /// group's (loop thread only). Pruned of groups without connections now and then.
  @exclusivity(unchecked) private var accounts: [String: ReadAccount] = [:]
  /// The current turn's number: an account's counts of another turn are stale.
  @exclusivity(unchecked) private var turn: UInt64 = 1
  /// Connections their group's budget stopped in this turn, to go first in the next.
  @exclusivity(unchecked) private var owed: [any BudgetedChannel] = []
  /// Scratch space for reads, shared by the loop's channels.
  let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)

  /// Within a turn, the handed-over tasks (frames) run again after this much of the turn's
  /// reading, however many connections it reads (and the reading goes on for this long between
  /// two runs of them, however long they take).
  static let taskNanoseconds: UInt64 = 2_000_000

  /// How often channels' timers are checked.
  static let timerMilliseconds: Int32 = 100
  static let timerNanoseconds = UInt64(timerMilliseconds) * 1_000_000

  init(index: Int, readBudget: ReadBudget = HTTPServer.Configuration().readBudget) throws {
    self.index = index
    self.readBudget = readBudget
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

  // MARK: Read budgets

  /// The account of `group`'s reading on this loop, for a connection of it to keep. Called on
  /// the loop's thread.
  func readAccount(_ group: String) -> ReadAccount {
    if let account = accounts[group] { return account }
    let account = ReadAccount()
    accounts[group] = account
    return account
  }

  /// Bytes the group of `account` may still read in this turn (0: none until the next).
  func readAllowance(_ account: ReadAccount) -> Int {
    let used = account.spent(in: turn)
    return used.messages < readBudget.messages ? max(0, readBudget.bytes - used.bytes) : 0
  }

  /// Counts `bytes` read by a connection of the group of `account` in this turn.
  func chargeRead(_ account: ReadAccount, bytes: Int) {
    account.charge(bytes: bytes, messages: 0, in: turn)
  }

  /// Counts one message of the group of `account` if its budget has room for it in this turn;
  /// false when not (the message waits for the next turn).
  func chargeMessage(_ account: ReadAccount) -> Bool {
    guard account.spent(in: turn).messages < readBudget.messages else { return false }
    account.charge(bytes: 0, messages: 1, in: turn)
    return true
  }

  /// Forgets the accounts no connection holds any more (their groups have left this loop).
  func pruneAccounts() {
    var unused: [String] = []
    // NB: an index holds no reference to the storage, so the dictionary's own reference is
    // the only one an account held by no connection has here.
    var index = accounts.startIndex
    while index != accounts.endIndex {
      if isKnownUniquelyReferenced(&accounts.values[index]) { unused.append(accounts.keys[index]) }
      accounts.formIndex(after: &index)
    }
    for group in unused { accounts[group] = nil }
  }

  /// How many groups have an account on this loop (for tests).
  var accountCount: Int { accounts.count }

  /// `channel` was stopped by its group's budget: it goes on first in the next turn.
  func owe(_ channel: any BudgetedChannel) {
    owed.append(channel)
  }

  /// Starts a turn: every group's budget is whole again, and the connections stopped in the last
  /// turn go on first.
  private func startTurn() {
    turn &+= 1
    guard !owed.isEmpty else { return }
    let stopped = owed
    owed = []
    for channel in stopped { channel.resumeReading() }
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
      // Tasks or reads left from the last turn: look at the sockets without sleeping.
      let timeout = moreTasks || !owed.isEmpty ? 0 : EventLoop.timerMilliseconds
      let count = poller.wait(into: &fds, &events, milliseconds: timeout)
      startTurn()
      var tasksRan = MonotonicTime.now()
      for i in 0..<count {
        if fds[i] == poller.wakeFD {
          poller.drainWake()
          continue
        }
        let slot = Int(fds[i])
        if slot < channels.count { channels[slot]?.ready(events[i]) }
        // NB: a turn that reads many busy connections sends the frames handed over meanwhile
        // on the way, so that they are not overtaken by newer ones and dropped.
        // NB: 2 ms from when the tasks last ended, not began: where frames to many sockets take
        // longer than that and a new one waits at every check (a loaded machine), timing from the
        // start ran them after every connection, and the turn's other sockets (new connections'
        // upgrades) got one connection's worth of time per frame.
        if MonotonicTime.now().nanoseconds &- tasksRan.nanoseconds >= Self.taskNanoseconds {
          _ = runTasks()
          tasksRan = MonotonicTime.now()
        }
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
      pruneAccounts()
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
