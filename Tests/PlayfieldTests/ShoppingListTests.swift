import JSON
import Testing

@testable import Playfield

@Suite("Shopping list: merging, ticks, removal and bad messages")
struct ShoppingListTests {
  func add(_ items: [JSONValue]) -> JSONValue { ["type": "add", "items": .array(items)] }

  @Test("the same name and unit merge, amounts add up, a tick is undone by a new add")
  func merging() throws {
    var list = ShoppingList()
    try list.apply(add([["name": "Flour", "amount": 200, "unit": "g", "aisle": "pantry"]]))
    try list.apply(add([["name": "flour", "amount": 300, "unit": "g", "aisle": "pantry"]]))
    try list.apply(add([["name": "flour", "amount": 250, "unit": "ml", "aisle": "pantry"]]))
    try list.apply(add([["name": "eggs", "amount": 2, "unit": "", "aisle": "dairy"]]))
    #expect(list.items.map(\.key) == ["flour|g", "flour|ml", "eggs|"])
    #expect(list.items[0].amount == 500)
    try list.apply(["type": "check", "key": "eggs|", "checked": true])
    #expect(list.items[2].checked)
    try list.apply(add([["name": "Eggs", "amount": 1]]))
    #expect(list.items[2].amount == 3 && !list.items[2].checked)
    try list.apply(["type": "check", "key": "flour|ml"])
    try list.apply(["type": "clear"])
    #expect(list.items.map(\.key) == ["flour|g", "eggs|"])
    try list.apply(["type": "remove", "key": "flour|g"])
    #expect(list.items.map(\.key) == ["eggs|"])
    #expect(ShoppingList(stored: list.json.jsonString) == list)
  }

  @Test("bad messages name what is wrong and change nothing")
  func refusals() throws {
    var list = ShoppingList()
    try list.apply(add([["name": " \t salt \n"], ["name": "  sea  salt "]]))
    #expect(list.items.map(\.name) == ["salt", "sea  salt"])
    let before = list
    #expect(throws: ShoppingListError("type must be add, check, remove or clear")) {
      try list.apply(["type": "explode"])
    }
    #expect(throws: ShoppingListError("an amount must be a positive number")) {
      try list.apply(add([["name": "x", "amount": -1]]))
    }
    #expect(throws: ShoppingListError("each item needs a name of 1 to 200 characters")) {
      try list.apply(add([["name": "   "]]))
    }
    #expect(throws: ShoppingListError("check needs the line's key")) {
      try list.apply(["type": "check"])
    }
    #expect(list == before)
  }

  @Test("an add is applied whole or not at all: a bad item or a full list changes nothing")
  func wholeAdds() throws {
    var list = ShoppingList()
    try list.apply(add([["name": "salt"]]))
    let before = list
    #expect(throws: ShoppingListError("each item needs a name of 1 to 200 characters")) {
      try list.apply(add([["name": "pepper"], ["name": "   "]]))
    }
    #expect(list == before)

    let almostFull = (1..<ShoppingList.maxItems).map {
      JSONValue.object(["name": .string("item \($0)")])
    }
    try list.apply(add(almostFull))
    #expect(list.items.count == ShoppingList.maxItems)
    try list.apply(["type": "remove", "key": "salt|"])
    let full = list
    #expect(throws: ShoppingListError("the shopping list holds at most 500 lines")) {
      try list.apply(add([["name": "Item 1", "amount": 2], ["name": "tea"], ["name": "coffee"]]))
    }
    #expect(list == full)
  }

  @Test("the items of one add merge with the list and with each other, by key")
  func manyItems() throws {
    var list = ShoppingList()
    let names = (0..<ShoppingList.maxItems).map { "Item \($0)" }
    try list.apply(add(names.map { ["name": .string($0), "amount": 1, "unit": "g"] }))
    try list.apply(
      add(names.reversed().map { ["name": .string($0.uppercased()), "amount": 2, "unit": "g"] }))
    #expect(list.items.map(\.name) == names)
    #expect(list.items.allSatisfy { $0.amount == 3 })
    try list.apply(
      add([
        ["name": "item 7", "amount": 1, "unit": "g"], ["name": "ITEM 7", "amount": 4, "unit": "g"],
      ]))
    #expect(list.items[7].amount == 8 && list.items.count == ShoppingList.maxItems)
    #expect(throws: ShoppingListError("add at most 500 items at once")) {
      try list.apply(add(Array(repeating: ["name": "tea"], count: ShoppingList.maxItems + 1)))
    }
  }
}
