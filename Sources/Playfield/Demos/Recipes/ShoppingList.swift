import JSON

/// A book's shopping list and the changes its devices send (docs/protocol.md "Recipes"):
/// `add` merges items of the same name and unit (amounts add up; the pages send volumes in ml
/// and masses in g, so compatible units merge), `check` ticks or unticks one, `remove` drops
/// one, `clear` drops the ticked ones (or all). Pure: the hub stores and broadcasts it.
struct ShoppingList: Sendable, Equatable {
  /// One line: its key is the name lowercased and the unit.
  struct Item: Sendable, Equatable {
    let name: String
    var amount: Double?
    let unit: String
    var aisle: String
    var checked: Bool
    /// Made once, not at every comparison: an add of many items compares each with the list.
    let key: String

    init(name: String, amount: Double?, unit: String, aisle: String, checked: Bool) {
      self.name = name
      self.amount = amount
      self.unit = unit
      self.aisle = aisle
      self.checked = checked
      self.key = name.lowercased() + "|" + unit
    }
  }

  /// Most lines a list holds.
  static let maxItems = 500

  private(set) var items: [Item] = []

  init(items: [Item] = []) {
    self.items = items
  }

  /// The list stored as JSON (`[]` when unreadable).
  init(stored: String) {
    guard case .array(let values)? = try? JSONValue.parse(stored) else { return }
    items = values.compactMap { try? Self.item($0, checked: $0["checked"]?.boolValue ?? false) }
  }

  /// Applies one message from a device, whole or not at all; throws a message naming what is
  /// wrong. Its cost grows with the message's items and the list's lines, not their product.
  mutating func apply(_ message: JSONValue) throws(ShoppingListError) {
    switch message["type"]?.stringValue {
    case "add":
      guard case .array(let values)? = message["items"] else {
        throw ShoppingListError("add needs items: [{name, amount, unit, aisle}]")
      }
      guard values.count <= Self.maxItems else {
        throw ShoppingListError("add at most \(Self.maxItems) items at once")
      }
      var added: [Item] = []
      for value in values { added.append(try Self.item(value, checked: false)) }
      try add(added)
    case "check":
      let key = try Self.key(message)
      guard let index = items.firstIndex(where: { $0.key == key }) else { return }
      items[index].checked = message["checked"]?.boolValue ?? true
    case "remove":
      let key = try Self.key(message)
      items.removeAll { $0.key == key }
    case "clear":
      if message["all"]?.boolValue == true { items = [] } else { items.removeAll(where: \.checked) }
    default:
      throw ShoppingListError("type must be add, check, remove or clear")
    }
  }

  /// Merges `added` into the list: each line found by its key in one index of the list.
  private mutating func add(_ added: [Item]) throws(ShoppingListError) {
    var merged = items
    var index: [String: Int] = [:]
    for (position, item) in merged.enumerated() where index[item.key] == nil {
      index[item.key] = position
    }
    for item in added {
      if let position = index[item.key] {
        if let amount = item.amount {
          merged[position].amount = (merged[position].amount ?? 0) + amount
        }
        merged[position].checked = false
        continue
      }
      guard merged.count < Self.maxItems else {
        throw ShoppingListError("the shopping list holds at most \(Self.maxItems) lines")
      }
      index[item.key] = merged.count
      merged.append(item)
    }
    items = merged
  }

  /// The list as the devices get it (and as it is stored).
  var json: JSONValue {
    .array(
      items.map { item in
        .object([
          "key": .string(item.key), "name": .string(item.name),
          "amount": item.amount.map(JSONValue.number) ?? .null, "unit": .string(item.unit),
          "aisle": .string(item.aisle), "checked": .bool(item.checked),
        ])
      })
  }

  private static func key(_ message: JSONValue) throws(ShoppingListError) -> String {
    guard let key = message["key"]?.stringValue else {
      throw ShoppingListError("\(message["type"]?.stringValue ?? "this") needs the line's key")
    }
    return key
  }

  private static func item(_ value: JSONValue, checked: Bool) throws(ShoppingListError) -> Item {
    guard let name = value["name"]?.stringValue?.trimmingWhitespace, !name.isEmpty,
      name.count <= 200
    else { throw ShoppingListError("each item needs a name of 1 to 200 characters") }
    let amount = value["amount"]?.doubleValue
    if let amount, !(amount.isFinite && amount > 0 && amount < 1e9) {
      throw ShoppingListError("an amount must be a positive number")
    }
    let unit = String((value["unit"]?.stringValue ?? "").prefix(20))
    let aisle = String((value["aisle"]?.stringValue ?? "other").prefix(40))
    return Item(name: name, amount: amount, unit: unit, aisle: aisle, checked: checked)
  }
}

extension String {
  /// Without the whitespace at either end. (By indices: reversing twice, as this once did,
  /// took 70 % of the server's time for an add of 500 long names.)
  fileprivate var trimmingWhitespace: String {
    guard let first = firstIndex(where: { !$0.isWhitespace }),
      let last = lastIndex(where: { !$0.isWhitespace })
    else { return "" }
    return String(self[first...last])
  }
}
