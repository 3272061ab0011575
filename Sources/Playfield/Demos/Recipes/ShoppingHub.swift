import Dispatch
import JSON
import Logging
import Server
import Storage
import Synchronization
import WebSocket

/// The live shopping lists: for each book with a device connected or a change not yet stored,
/// its list and the sockets to tell. Every change is applied under one lock, sent, whole, to
/// every device of the book (the sender included) and stored (`recipe_books.shopping`).
///
/// Three rules keep every device and the store in one order:
/// - A book's channel is made by the first device to open it, and its list is read from the
///   store then, off the event loops; the channel goes only when its last device has gone and
///   its last change is stored. So the store holds the newest list whenever there is no
///   channel, and a device never starts from a list older than a change it follows.
/// - Everything the hub sends (lists, and the errors answering a device) is handed to each
///   device's event loop under the lock (`sendInOrder`), so each device gets them in the order
///   they happened, and one device's flood waits on its own loop, not in a queue of the hub's.
/// - The list is stored whole by one write at a time per book, each writing the newest list;
///   a write that fails is tried again a second later, and the channel stays until one works.
/// - Each write has an ID of its own (random), and the store keeps, with the list, the IDs of
///   the last writes that built it (`StoredShoppingList`, 64). A write replaces only the list
///   the channel last read or wrote: the store compares the IDs, not the list, so a list that
///   went A -> B -> A by other writes is not taken for the A read. On a shared store another
///   process may hold a channel of the book too (devices connected to it while this one was
///   away): then the write is refused, the changes not yet stored are applied again to the
///   list the store holds now, every device gets the result and it is written in turn. Such a
///   hub reads a channel's list again as soon as the store says another process stored it
///   (PostgreSQL's LISTEN/NOTIFY, `StoreWatch`), and every `watchInterval` in case a
///   notification was lost, so that each process's devices see the other's changes.
/// - A write that failed may have been stored all the same (the store's answer was lost after
///   its commit, and the link to the store may even have repeated the statement on a new
///   connection, to be refused). When a later write is refused, the newest of this channel's
///   writes whose ID the stored list's IDs hold (the refused one, or one that failed) counts as
///   stored, and only the changes after it are applied again to the store's list: so a lost
///   write's changes are applied once, even when another process has read it and stored a
///   change of its own over it meanwhile (before, "add 1 apple" became 2 on every device and in
///   the store). A lost write is so recognised while fewer than 64 writes came after it.
final class ShoppingHub: Sendable {
  private struct Channel {
    /// `nil` until the store has been read.
    private(set) var list: ShoppingList?
    /// `list` as JSON, encoded once for each change: what the devices are sent and what is
    /// stored.
    private(set) var items = "[]"
    var sockets: [UInt64: WebSocket] = [:]
    /// The sockets that came with a link (not the owner's token): closed when the owner
    /// replaces or revokes the links.
    var linked: Set<UInt64> = []
    /// Changes sent while the list was being read, applied in order once it is.
    var early: [(change: JSONValue, from: WebSocket)] = []
    /// Changes applied, and how many of them the store holds.
    var version: UInt64 = 0
    var storedVersion: UInt64 = 0
    /// The list the store held when last read or written here, with the IDs of the writes that
    /// built it: a write replaces only that.
    var stored = StoredShoppingList(items: "[]")
    /// The changes applied after `storedVersion`, with their versions: applied again to the
    /// store's list when another process wrote it first.
    var unstored: [(version: UInt64, change: JSONValue)] = []
    /// The writes that failed (the store threw) since the store's list was last known, oldest
    /// first, with their IDs: each may have been stored all the same, its answer lost after the
    /// commit.
    var uncertain: [(version: UInt64, id: String)] = []
    /// A write of this book is queued or running.
    var writing = false

    /// Notes that the store holds `list`, or a list built on it, made here as of `version`.
    mutating func noteStored(_ list: StoredShoppingList, version: UInt64) {
      storedVersion = version
      stored = list
      unstored.removeAll { $0.version <= version }
      uncertain = []
    }

    var canGo: Bool { sockets.isEmpty && storedVersion == version && !writing }

    /// Sets the list (once it was read, or changed) and encodes it.
    mutating func set(_ list: ShoppingList, encode: (ShoppingList) -> String) {
      self.list = list
      items = encode(list)
    }

    /// Applies a device's change to the list (whole or not at all) and encodes it.
    mutating func apply(
      _ change: JSONValue, encode: (ShoppingList) -> String
    ) throws(ShoppingListError) {
      try list!.apply(change)
      items = encode(list!)
    }

    /// What a device is sent: the list, from its encoding (not encoded again for each).
    var message: String { #"{"type":"list","items":"# + items + "}" }
  }

  /// Most changes a channel keeps while its list is read.
  static let maxEarlyChanges = 64

  private let store: (any SessionStore)?
  private let channels = Mutex<[String: Channel]>([:])
  /// Reads and writes of the lists, in order, off the event loops.
  private let storage = DispatchQueue(label: "playfield.shopping-storage")
  private let retryDelay: DispatchTimeInterval
  /// How often each channel's list is read again from a shared store; nil: never (the store is
  /// this process's alone).
  private let watchInterval: DispatchTimeInterval?
  /// The store's news of lists stored by any process, while the hub lives.
  private let heard = Mutex<StoreWatch?>(nil)
  private let log = Logger(label: "playfield.recipes")
  /// The changes each client sent in the last minute (`--shopping-changes-per-minute`).
  private let changes: Mutex<ImportWindow>
  private let wallClock: @Sendable () -> Double
  /// Encodes a list as JSON: once for each change, for every device and the store alike (tests
  /// count its calls). Before, a change encoded the whole list twice, to send and to store it.
  private let encode: @Sendable (ShoppingList) -> String

  init(
    store: (any SessionStore)?, changesPerMinute: Int = 600,
    wallClock: @escaping @Sendable () -> Double = { 0 },
    retryDelay: DispatchTimeInterval = .seconds(1), watchInterval: DispatchTimeInterval? = nil,
    encode: @escaping @Sendable (ShoppingList) -> String = { $0.json.jsonString }
  ) {
    self.store = store
    self.encode = encode
    self.changes = Mutex(ImportWindow(perMinute: changesPerMinute))
    self.wallClock = wallClock
    self.retryDelay = retryDelay
    self.watchInterval = watchInterval
    if let watchInterval {
      storage.asyncAfter(deadline: .now() + watchInterval) { [weak self] in self?.watch() }
    }
    let watch = store?.watchShoppingLists { [weak self] bookID in
      guard let hub = self else { return }
      hub.storage.async { hub.refresh(bookID: bookID) }
    }
    heard.withLock { $0 = watch }
  }

  deinit {
    heard.withLock { $0?.cancel() }
  }

  /// A new write's ID, unique among every process's writes of a list: 64 random bits as 16
  /// hex digits.
  static func newWriteID() -> String {
    let hex = String(UInt64.random(in: .min ... .max), radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }

  /// Counts one change by `client`; refuses it (counting nothing) past its share of the
  /// minute, saying when it may change the list again.
  func charge(_ client: String) throws(ShoppingListError) {
    guard let wait = changes.withLock({ $0.admit(client, now: wallClock()) }) else { return }
    throw ShoppingListError(
      "too many shopping-list changes this minute (--shopping-changes-per-minute); try again "
        + "in \(Int(wait.rounded(.up))) s")
  }

  /// Adds a device to the book's channel (`viaLink`: it came with a read or read-write link).
  /// It gets the list now if the channel has it, else once the store has been read.
  func open(bookID: String, socket: WebSocket, viaLink: Bool) {
    let mustRead = channels.withLock { channels in
      var channel = channels[bookID] ?? Channel()
      let isNew = channels[bookID] == nil
      channel.sockets[socket.id] = socket
      if viaLink { channel.linked.insert(socket.id) }
      channels[bookID] = channel
      if channel.list != nil { send(channel.message, to: [socket]) }
      return isNew
    }
    if mustRead { storage.async { self.read(bookID: bookID) } }
  }

  /// Applies a device's change (or keeps it while the list is read), and sends the list to
  /// every device of the book; a change that cannot be applied is answered with an error.
  func apply(_ change: JSONValue, bookID: String, from socket: WebSocket) {
    channels.withLock { channels in
      guard var channel = channels[bookID], channel.sockets[socket.id] != nil else {
        return refuse(ShoppingListError("this link no longer opens the book"), to: [socket])
      }
      defer { channels[bookID] = channel }
      guard channel.list != nil else {
        guard channel.early.count < Self.maxEarlyChanges else {
          return refuse(ShoppingListError("the list is still being read; try again"), to: [socket])
        }
        return channel.early.append((change, socket))
      }
      do throws(ShoppingListError) {
        try channel.apply(change, encode: encode)
      } catch {
        return refuse(error, to: [socket])
      }
      changed(&channel, bookID: bookID, by: [change])
    }
  }

  /// Answers a device with an error, in order with the lists it is sent.
  func refuse(_ error: ShoppingListError, to sockets: [WebSocket]) {
    let answer: JSONValue = ["type": "error", "message": .string(error.message)]
    send(answer.jsonString, to: sockets)
  }

  /// Removes a device; the book's channel goes when its last device has and its list is stored.
  func close(bookID: String, socket: WebSocket) {
    channels.withLock { channels in
      channels[bookID]?.sockets[socket.id] = nil
      channels[bookID]?.linked.remove(socket.id)
      if channels[bookID]?.canGo == true { channels[bookID] = nil }
    }
  }

  /// Closes the devices that came with a link: the owner replaced or revoked the links. From
  /// now on their changes are refused, and they are closed once sent what was sent before.
  func closeLinked(bookID: String, reason: String) {
    channels.withLock { channels in
      guard var channel = channels[bookID] else { return }
      let sockets = channel.linked.compactMap { channel.sockets.removeValue(forKey: $0) }
      channel.linked = []
      channels[bookID] = channel.canGo ? nil : channel
      for socket in sockets { socket.close(.policyViolation, reason: reason) }
    }
  }

  // MARK: Under the lock

  /// After `changes` to `channel`'s list (set and encoded): tells its devices and has the list
  /// stored.
  private func changed(_ channel: inout Channel, bookID: String, by changes: [JSONValue]) {
    for change in changes {
      channel.version += 1
      channel.unstored.append((channel.version, change))
    }
    send(channel.message, to: Array(channel.sockets.values))
    guard !channel.writing else { return }
    channel.writing = true
    storage.async { self.write(bookID: bookID) }
  }

  private func send(_ text: String, to sockets: [WebSocket]) {
    guard !sockets.isEmpty else { return }
    for socket in sockets { socket.sendInOrder(.text(text)) }
  }

  // MARK: On the storage queue

  /// Reads a new channel's list, applies the changes sent meanwhile and sends it. A failure
  /// closes the channel's devices: a list shown empty for want of the store would be stored
  /// empty at the next change. A channel whose list is in already (read for an earlier channel
  /// of the book, which closed while this read waited) keeps it: it may hold newer changes.
  private func read(bookID: String) {
    let stored: StoredShoppingList
    do {
      stored = try store?.shoppingList(bookID: bookID) ?? StoredShoppingList(items: "[]")
    } catch {
      log.error("the shopping list of a book could not be read: \(error)")
      channels.withLock { channels in
        guard channels[bookID]?.list == nil else { return }
        let sockets = Array(channels.removeValue(forKey: bookID)?.sockets.values ?? [:].values)
        refuse(ShoppingListError("the shopping list could not be read; try again"), to: sockets)
        for socket in sockets { socket.close(.tryAgainLater, reason: "the store") }
      }
      return
    }
    channels.withLock { channels in
      guard var channel = channels[bookID], channel.list == nil else { return }
      defer { channels[bookID] = channel }
      var list = ShoppingList(stored: stored.items)
      var changes: [JSONValue] = []
      for (change, socket) in channel.early {
        do throws(ShoppingListError) {
          try list.apply(change)
          changes.append(change)
        } catch {
          refuse(error, to: [socket])
        }
      }
      channel.early = []
      channel.set(list, encode: encode)
      channel.stored = stored
      if !changes.isEmpty {
        changed(&channel, bookID: bookID, by: changes)
      } else {
        send(channel.message, to: Array(channel.sockets.values))
      }
    }
  }

  /// Stores the newest list of the book over the one last read or written here; writes again
  /// while changes keep coming, and tries again later if the store fails. When the store holds
  /// another list (another process's channel wrote it), the changes not yet stored are applied
  /// to that one, sent, and written instead; except those of this write, or of a failed earlier
  /// one (stored after all, its answer lost), that the stored list was built on: the newest
  /// such write counts as stored.
  private func write(bookID: String) {
    let newest: (items: String, version: UInt64, over: StoredShoppingList)? = channels.withLock {
      channels in
      guard let channel = channels[bookID], channel.list != nil else { return nil }
      return (channel.items, channel.version, channel.stored)
    }
    guard let (items, version, over) = newest else { return }
    let id = Self.newWriteID()
    var failure: (any Error)?
    var now: StoredShoppingList?? = nil
    // NB: a write that threw may have been stored; a read that threw after a refused write
    // leaves nothing uncertain.
    var mayHaveLanded = false
    do {
      if let store {
        let replaced: Bool
        do {
          replaced = try store.setShoppingList(
            bookID: bookID, items: items, write: id, over: over.writes)
        } catch {
          mayHaveLanded = true
          throw error
        }
        if !replaced { now = .some(try store.shoppingList(bookID: bookID)) }
      }
    } catch {
      failure = error
    }
    let again: Bool = channels.withLock { channels in
      guard var channel = channels[bookID] else { return false }
      defer { channels[bookID] = channel.canGo ? nil : channel }
      switch (failure, now) {
      case (.some, _):
        if mayHaveLanded { channel.uncertain.append((version, id)) }
      case (nil, .none):
        channel.noteStored(over.written(items, by: id), version: version)
      case (nil, .some(.none)):
        // NB: the book is gone: nothing of it can be stored any more.
        channel.storedVersion = channel.version
        channel.unstored = []
        channel.uncertain = []
      case (nil, .some(.some(let theirs))):
        // NB: the newest of this channel's writes the store's list was built on: its changes
        // and those before it are in that list. Only the changes after it (all, when there is
        // none) are applied again, unless the list is that write's own (nothing of another
        // process's over it).
        let ours = channel.uncertain + [(version: version, id: id)]
        if let landed = ours.last(where: { theirs.contains(write: $0.id) }) {
          channel.noteStored(theirs, version: landed.version)
          if theirs.head != landed.id { rebase(&channel, on: theirs) }
        } else {
          channel.uncertain = []
          rebase(&channel, on: theirs)
        }
      }
      channel.writing = channel.storedVersion != channel.version
      return channel.writing
    }
    if let failure {
      log.error("the shopping list of a book could not be stored; trying again: \(failure)")
      storage.asyncAfter(deadline: .now() + retryDelay) { self.write(bookID: bookID) }
    } else if again {
      storage.async { self.write(bookID: bookID) }
    }
  }

  /// The store's list `theirs` with this channel's changes not yet stored applied again (those
  /// that no longer apply are dropped), sent to the channel's devices; it is to be stored next.
  private func rebase(_ channel: inout Channel, on theirs: StoredShoppingList) {
    var list = ShoppingList(stored: theirs.items)
    for (_, change) in channel.unstored { try? list.apply(change) }
    channel.stored = theirs
    channel.set(list, encode: encode)
    channel.version += 1
    send(channel.message, to: Array(channel.sockets.values))
  }

  /// Reads every channel's list again (`refresh`); then again after `watchInterval`.
  private func watch() {
    guard let watchInterval else { return }
    defer {
      storage.asyncAfter(deadline: .now() + watchInterval) { [weak self] in self?.watch() }
    }
    for bookID in channels.withLock({ Array($0.keys) }) { refresh(bookID: bookID) }
  }

  /// Reads the book's list again, if it has a channel with devices and nothing to write, and
  /// sends it to them when another process has stored another. (A channel with a write
  /// coming finds out when its write is refused: `rebase`.)
  private func refresh(bookID: String) {
    let open = channels.withLock { channels in
      channels[bookID].map { !$0.sockets.isEmpty && $0.list != nil && !$0.writing } ?? false
    }
    guard open, let theirs = try? store?.shoppingList(bookID: bookID) else { return }
    channels.withLock { channels in
      guard var channel = channels[bookID], channel.list != nil, !channel.writing,
        channel.stored != theirs
      else { return }
      channel.stored = theirs
      channel.set(ShoppingList(stored: theirs.items), encode: encode)
      send(channel.message, to: Array(channel.sockets.values))
      channels[bookID] = channel
    }
  }

  /// Seconds a shutdown waits for the lists not stored yet (`flush`).
  static let shutdownWait = 5.0

  /// At shutdown, once no device can change a list: waits at most `timeout` seconds until
  /// every change its devices were told of is stored (a failed write is still tried again
  /// every `retryDelay`); false, logged, when some are not. Before, they were lost.
  func flush(timeout: Double) -> Bool {
    let deadline = DispatchTime.now() + timeout
    let pause = DispatchSemaphore(value: 0)
    var told = false
    while true {
      let unstored = channels.withLock { $0.values.filter { $0.storedVersion != $0.version } }
      if unstored.isEmpty { return true }
      if !told {
        told = true
        log.warning(
          "waiting up to \(timeout) s for \(unstored.count) shopping lists to be stored")
      }
      guard DispatchTime.now() < deadline else {
        log.error("\(unstored.count) shopping lists could not be stored before the shutdown")
        return false
      }
      _ = pause.wait(timeout: .now() + .milliseconds(20))
    }
  }
}
