/// A least-recently-used map of byte arrays bounded by their total size. Not thread-safe:
/// `ResultCache` guards it with a lock.
struct LRUStore<Key: Hashable> {
  private struct Node {
    var key: Key
    var value: [UInt8]
    var newer: Int?
    var older: Int?
  }

  /// The most bytes the values may add up to.
  let capacity: Int
  /// The bytes the values add up to now.
  private(set) var bytes = 0
  private var nodes: [Node] = []
  private var freeSlots: [Int] = []
  private var slotOfKey: [Key: Int] = [:]
  private var newest: Int?
  private var oldest: Int?

  init(capacity: Int) {
    self.capacity = max(0, capacity)
  }

  /// Number of entries.
  var count: Int { slotOfKey.count }

  /// The keys from the most to the least recently used.
  var keysByRecency: [Key] {
    var keys: [Key] = []
    var slot = newest
    while let current = slot {
      keys.append(nodes[current].key)
      slot = nodes[current].older
    }
    return keys
  }

  /// The value for `key`, which becomes the most recently used; nil when absent.
  mutating func value(for key: Key) -> [UInt8]? {
    guard let slot = slotOfKey[key] else { return nil }
    unlink(slot)
    pushNewest(slot)
    return nodes[slot].value
  }

  /// Stores `value` as the most recently used entry, evicting the least recently used ones until
  /// it fits; returns how many were evicted. A value larger than the capacity is not stored.
  @discardableResult
  mutating func insert(_ value: [UInt8], for key: Key) -> Int {
    remove(key)
    guard value.count <= capacity else { return 0 }
    var evicted = 0
    while bytes + value.count > capacity, let victim = oldest {
      remove(nodes[victim].key)
      evicted += 1
    }
    let node = Node(key: key, value: value, newer: nil, older: nil)
    let slot: Int
    if let free = freeSlots.popLast() {
      nodes[free] = node
      slot = free
    } else {
      nodes.append(node)
      slot = nodes.count - 1
    }
    slotOfKey[key] = slot
    bytes += value.count
    pushNewest(slot)
    return evicted
  }

  /// Drops `key`'s entry if there is one.
  mutating func remove(_ key: Key) {
    guard let slot = slotOfKey.removeValue(forKey: key) else { return }
    unlink(slot)
    bytes -= nodes[slot].value.count
    nodes[slot].value = []
    freeSlots.append(slot)
  }

  private mutating func unlink(_ slot: Int) {
    let (newer, older) = (nodes[slot].newer, nodes[slot].older)
    if let newer { nodes[newer].older = older } else { newest = older }
    if let older { nodes[older].newer = newer } else { oldest = newer }
    nodes[slot].newer = nil
    nodes[slot].older = nil
  }

  private mutating func pushNewest(_ slot: Int) {
    nodes[slot].older = newest
    nodes[slot].newer = nil
    if let newest { nodes[newest].newer = slot }
    newest = slot
    if oldest == nil { oldest = slot }
  }
}
