import Testing

@testable import Playfield

@Suite struct LRUStoreTests {
  func bytes(_ count: Int, _ fill: UInt8 = 0) -> [UInt8] { Array(repeating: fill, count: count) }

  @Test func evictsTheLeastRecentlyUsedUntilTheNewValueFits() {
    var store = LRUStore<String>(capacity: 100)
    store.insert(bytes(40, 1), for: "a")
    store.insert(bytes(40, 2), for: "b")
    #expect(store.value(for: "a") == bytes(40, 1))
    #expect(store.insert(bytes(40, 3), for: "c") == 1)
    #expect(store.value(for: "b") == nil)
    #expect(store.keysByRecency == ["c", "a"])
    #expect(store.bytes == 80)
    #expect(store.insert(bytes(90), for: "d") == 2)
    #expect(store.keysByRecency == ["d"])
    #expect(store.bytes == 90 && store.count == 1)
  }

  @Test func replacingAKeyUpdatesItsSize() {
    var store = LRUStore<Int>(capacity: 10)
    store.insert(bytes(6), for: 1)
    store.insert(bytes(3), for: 1)
    #expect(store.bytes == 3 && store.count == 1)
    store.insert(bytes(7), for: 2)
    #expect(store.keysByRecency == [2, 1])
    store.remove(1)
    store.remove(1)
    #expect(store.bytes == 7 && store.keysByRecency == [2])
  }

  @Test func valuesLargerThanTheCapacityAreNotStored() {
    var store = LRUStore<Int>(capacity: 10)
    store.insert(bytes(5), for: 1)
    #expect(store.insert(bytes(11), for: 2) == 0)
    #expect(store.value(for: 2) == nil)
    #expect(store.keysByRecency == [1])
    var none = LRUStore<Int>(capacity: 0)
    none.insert([], for: 1)
    none.insert([1], for: 2)
    #expect(none.keysByRecency == [1] && none.bytes == 0)
  }

  @Test func recencyOrderSurvivesManyOperations() {
    var store = LRUStore<Int>(capacity: 1000)
    var model: [Int] = []
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<5000 {
      let key = Int.random(in: 0..<60, using: &generator)
      if Bool.random(using: &generator) {
        store.insert(bytes(Int.random(in: 1...40, using: &generator)), for: key)
        model.removeAll { $0 == key }
        model.insert(key, at: 0)
      } else if store.value(for: key) != nil {
        model.removeAll { $0 == key }
        model.insert(key, at: 0)
      }
      model = Array(model.prefix(store.count))
      #expect(store.bytes <= 1000)
      #expect(store.keysByRecency == model)
    }
  }
}
