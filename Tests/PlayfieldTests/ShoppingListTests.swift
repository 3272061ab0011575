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
    try list.apply(add([["name": "salt"]]))
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
}
