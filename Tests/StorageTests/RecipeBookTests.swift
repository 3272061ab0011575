import Foundation
import Synchronization
import Testing

@testable import Storage

@Suite("Recipe books: tokens, links, full-text search, tags, the per-book limit")
struct RecipeBookTests {
  func recipe(_ name: String, _ text: String, tags: [String] = []) -> NewRecipe {
    NewRecipe(
      name: name, recipe: #"{"@type":"Recipe","name":"\#(name)"}"#, tags: tags,
      searchText: name + " " + text)
  }

  @Test(
    "owner, read-write and read-only tokens open the book; revoked links do not",
    arguments: Backend.allCases)
  func tokens(_ backend: Backend) throws {
    do {
      let fixture = try StoreFixture(backend)
      defer { fixture.remove() }
      let store = fixture.store
      let book = try store.createRecipeBook(id: "b1", ownerToken: "own", client: "10.0.0.1", at: 1)
      #expect(book.access == .owner)
      #expect(try store.recipeBook(token: "own")?.access == .owner)
      #expect(try store.recipeBook(token: "nobody") == nil)
      #expect(try store.clientRecipeBook(client: "10.0.0.1")?.id == "b1")
      #expect(try store.clientRecipeBook(client: "10.0.0.2") == nil)
      try store.setRecipeBookLinks(bookID: "b1", readToken: "r1", writeToken: "w1")
      #expect(try store.recipeBook(token: "r1")?.access == .read)
      #expect(try store.recipeBook(token: "w1")?.access == .write)
      #expect(try store.recipeBook(token: "own")?.hasReadLink == true)
      try store.setRecipeBookLinks(bookID: "b1", readToken: "r2", writeToken: nil)
      #expect(try store.recipeBook(token: "r1") == nil)
      #expect(try store.recipeBook(token: "w1") == nil)
      #expect(try store.recipeBook(token: "r2")?.access == .read)
    }
  }

  @Test(
    "search finds words and prefixes, tags filter, sorts order, books stay apart",
    arguments: Backend.allCases)
  func search(_ backend: Backend) throws {
    do {
      let fixture = try StoreFixture(backend)
      defer { fixture.remove() }
      let store = fixture.store
      try store.createRecipeBook(id: "a", ownerToken: "ta", client: nil, at: 1)
      try store.createRecipeBook(id: "b", ownerToken: "tb", client: nil, at: 1)
      let added = try store.addRecipes(
        [
          recipe("Banana bread", "flour bananas butter bake", tags: ["Baking", "sweet"]),
          recipe("Tomato soup", "tomatoes onion simmer", tags: ["soup"]),
          recipe("apple pie", "apples flour butter bake", tags: ["baking"]),
        ], bookID: "a", at: 10)
      try store.addRecipes([recipe("Bread", "flour water")], bookID: "b", at: 11)
      #expect(added.map(\.name) == ["Banana bread", "Tomato soup", "apple pie"])
      #expect(added[0].tags == ["baking", "sweet"])
      let names = { (query: RecipeQuery) in try store.recipes(bookID: "a", query: query).map(\.name)
      }
      #expect(try names(RecipeQuery()) == ["apple pie", "Banana bread", "Tomato soup"])
      #expect(try names(RecipeQuery(text: "flour BUTTER")) == ["apple pie", "Banana bread"])
      #expect(try names(RecipeQuery(text: "tomat")) == ["Tomato soup"])
      #expect(try names(RecipeQuery(limit: 1, offset: 1)) == ["Banana bread"])
      #expect(try names(RecipeQuery(text: "flour", limit: 5, offset: 1)) == ["Banana bread"])
      #expect(try names(RecipeQuery(limit: 5, offset: 3)) == [])
      #expect(try names(RecipeQuery(text: "\"OR* NOT")) == [])
      #expect(try names(RecipeQuery(text: "!!!")) == [])
      #expect(
        try names(RecipeQuery(tag: "Baking", sort: .newest)) == ["apple pie", "Banana bread"])
      #expect(try names(RecipeQuery(tag: "bak")) == [])
      let pie = added[2]
      #expect(
        try store.setRecipeTags(bookID: "a", id: pie.id, tags: ["Dessert"], at: 12)?.tags
          == ["dessert"])
      #expect(try store.recipe(bookID: "b", id: pie.id) == nil)
      #expect(try store.deleteRecipe(bookID: "a", id: pie.id))
      #expect(try names(RecipeQuery(text: "apples")) == [])
      #expect(try !store.deleteRecipe(bookID: "a", id: pie.id))
    }
  }

  @Test(
    "a list reads each recipe's stored summary, and the whole recipe only when it has none",
    arguments: Backend.allCases)
  func listed(_ backend: Backend) throws {
    do {
      let fixture = try StoreFixture(backend)
      defer { fixture.remove() }
      let store = fixture.store
      try store.createRecipeBook(id: "a", ownerToken: "ta", client: nil, at: 1)
      var summarised = recipe("Banana bread", "flour bananas", tags: ["Baking"])
      summarised.summary = #"{"totalTime":"PT1H"}"#
      // As a recipe stored before summaries were: none.
      let whole = recipe("Tomato soup", "tomatoes onion")
      try store.addRecipes([summarised, whole], bookID: "a", at: 10)
      let listed = try store.listedRecipes(bookID: "a", query: RecipeQuery())
      #expect(listed.map(\.name) == ["Banana bread", "Tomato soup"])
      #expect(listed[0].summary == #"{"totalTime":"PT1H"}"# && listed[0].recipe == nil)
      #expect(listed[0].tags == ["baking"] && listed[0].createdAt == 10)
      #expect(listed[1].summary == nil && listed[1].recipe == whole.recipe)
      // The same query, order and page as `recipes`.
      for query in [
        RecipeQuery(sort: .newest, limit: 1), RecipeQuery(tag: "baking"),
        RecipeQuery(text: "tomat"), RecipeQuery(limit: 5, offset: 1),
      ] {
        #expect(
          try store.listedRecipes(bookID: "a", query: query).map(\.id)
            == store.recipes(bookID: "a", query: query).map(\.id))
      }
    }
  }

  @Test(
    "a book holds at most maxRecipesPerBook; an import over it stores nothing",
    arguments: Backend.allCases)
  func limit(_ backend: Backend) throws {
    var limits = StoreLimits()
    limits.maxRecipesPerBook = 3
    do {
      let fixture = try StoreFixture(backend, limits: limits)
      defer { fixture.remove() }
      let store = fixture.store
      try store.createRecipeBook(id: "a", ownerToken: "ta", client: nil, at: 1)
      try store.addRecipes([recipe("one", "x"), recipe("two", "y")], bookID: "a", at: 1)
      #expect(throws: StoreError.tooManyRecipes(limit: 3)) {
        try store.addRecipes([recipe("three", "x"), recipe("four", "y")], bookID: "a", at: 2)
      }
      #expect(try store.recipes(bookID: "a", query: RecipeQuery()).count == 2)
    }
  }
}

extension RecipeBookTests {
  /// A recipe whose stored JSON is exactly `bytes` long (its name padded; "é" is two bytes).
  func recipe(_ name: String, bytes: Int) -> NewRecipe {
    let bare = #"{"@type":"Recipe","name":"\#(name)"}"#.utf8.count
    let padding =
      String(repeating: "é", count: (bytes - bare) / 2)
      + String(repeating: "x", count: (bytes - bare) % 2)
    let json = #"{"@type":"Recipe","name":"\#(name)\#(padding)"}"#
    precondition(json.utf8.count == bytes)
    return NewRecipe(name: name, recipe: json, tags: [], searchText: name)
  }

  @Test(
    "the books one client made hold at most maxRecipeBytesPerClient together; others' are apart",
    arguments: Backend.allCases)
  func bytesPerClient(_ backend: Backend) throws {
    var limits = StoreLimits()
    limits.maxRecipeBytesPerClient = 10_000
    let fixture = try StoreFixture(backend, limits: limits)
    defer { fixture.remove() }
    let store = fixture.store
    try store.createRecipeBook(id: "a1", ownerToken: "t1", client: "ann", at: 1)
    try store.createRecipeBook(id: "a2", ownerToken: "t2", client: "ann", at: 1)
    try store.createRecipeBook(id: "b", ownerToken: "t3", client: "bob", at: 1)
    try store.createRecipeBook(id: "n", ownerToken: "t4", client: nil, at: 1)
    try store.addRecipes(
      [recipe("one", bytes: 4_000), recipe("two", bytes: 3_000)], bookID: "a1", at: 1)
    // Ann's second book counts with her first: 7,000 + 3,001 is past 10,000.
    #expect(throws: StoreError.tooManyRecipeBytes(limit: 10_000)) {
      try store.addRecipes([recipe("three", bytes: 3_001)], bookID: "a2", at: 2)
    }
    // A batch is all or nothing.
    #expect(throws: StoreError.tooManyRecipeBytes(limit: 10_000)) {
      try store.addRecipes(
        [recipe("small", bytes: 1_000), recipe("big", bytes: 2_500)], bookID: "a2", at: 2)
    }
    #expect(try store.recipes(bookID: "a2", query: RecipeQuery()).isEmpty)
    try store.addRecipes([recipe("three", bytes: 3_000)], bookID: "a2", at: 2)
    // Exactly full: 10,000 bytes held.
    #expect(throws: StoreError.tooManyRecipeBytes(limit: 10_000)) {
      try store.addRecipes([recipe("four", bytes: 40)], bookID: "a1", at: 3)
    }
    // Bob and a book made without a client each have their own room.
    try store.addRecipes([recipe("bob", bytes: 9_000)], bookID: "b", at: 3)
    try store.addRecipes([recipe("none", bytes: 9_000)], bookID: "n", at: 3)
    #expect(throws: StoreError.tooManyRecipeBytes(limit: 10_000)) {
      try store.addRecipes([recipe("more", bytes: 1_001)], bookID: "n", at: 4)
    }
    // Deleting gives the room back.
    let one = try #require(
      try store.recipes(bookID: "a1", query: RecipeQuery()).first { $0.name == "one" })
    #expect(try store.deleteRecipe(bookID: "a1", id: one.id))
    try store.addRecipes([recipe("four", bytes: 4_000)], bookID: "a1", at: 5)
    #expect(
      try store.recipes(bookID: "a1", query: RecipeQuery()).map(\.name).sorted() == ["four", "two"])
  }
}

extension RecipeBookTests {
  @Test(
    "a recipe keeps at most maxTagsPerRecipe tags of at most maxTagCharacters; more stores nothing",
    arguments: Backend.allCases)
  func tagBounds(_ backend: Backend) throws {
    let fixture = try StoreFixture(backend)
    defer { fixture.remove() }
    let store = fixture.store
    let limits = StoreLimits()
    try store.createRecipeBook(id: "a", ownerToken: "ta", client: nil, at: 1)
    let many = (0...limits.maxTagsPerRecipe).map { "tag \($0)" }
    let long = String(repeating: "x", count: limits.maxTagCharacters + 1)
    for tags in [many, [long]] {
      #expect(throws: StoreError.self) {
        try store.addRecipes(
          [NewRecipe(name: "Pie", recipe: "{}", tags: tags, searchText: "pie")], bookID: "a", at: 1)
      }
    }
    #expect(try store.recipes(bookID: "a", query: RecipeQuery()).isEmpty)
    // At the bounds, and repeats that normalise to one, are kept.
    let fitting =
      Array(many.prefix(limits.maxTagsPerRecipe - 1)) + ["Tag 0", String(long.dropLast())]
    let pie = try #require(
      try store.addRecipes(
        [NewRecipe(name: "Pie", recipe: "{}", tags: fitting, searchText: "pie")], bookID: "a", at: 1
      ).first)
    #expect(pie.tags.count == limits.maxTagsPerRecipe)
    #expect(throws: StoreError.self) {
      try store.setRecipeTags(bookID: "a", id: pie.id, tags: many, at: 2)
    }
    #expect(try store.recipe(bookID: "a", id: pie.id)?.tags == pie.tags)
  }
}

@Suite("Shopping lists in the store: compare-and-set writes, and news of them on PostgreSQL")
struct ShoppingListStoreTests {
  /// A store of `backend` with one book, `b1`, whose list was never written.
  private func storeWithABook(_ backend: Backend) throws -> StoreFixture {
    let fixture = try StoreFixture(backend)
    do {
      try fixture.store.createRecipeBook(id: "b1", ownerToken: "own", client: nil, at: 1)
    } catch {
      fixture.remove()
      throw error
    }
    return fixture
  }

  @Test(
    "a write replaces only the list whose writes it read, and never makes a book",
    arguments: Backend.allCases)
  func compareAndSet(_ backend: Backend) throws {
    let fixture = try storeWithABook(backend)
    defer { fixture.remove() }
    let store = fixture.store
    #expect(try store.shoppingList(bookID: "b1") == StoredShoppingList(items: "[]"))
    #expect(try store.setShoppingList(bookID: "b1", items: #"["a"]"#, write: "w1", over: []))
    // Another process's write came first: this one is refused and changes nothing.
    #expect(try !store.setShoppingList(bookID: "b1", items: #"["b"]"#, write: "w2", over: []))
    #expect(
      try store.shoppingList(bookID: "b1") == StoredShoppingList(items: #"["a"]"#, writes: ["w1"]))
    #expect(
      try store.setShoppingList(bookID: "b1", items: #"["a","b"]"#, write: "w3", over: ["w1"]))
    #expect(
      try store.shoppingList(bookID: "b1")
        == StoredShoppingList(items: #"["a","b"]"#, writes: ["w1", "w3"]))
    #expect(try store.shoppingList(bookID: "gone") == nil)
    #expect(try !store.setShoppingList(bookID: "gone", items: "[]", write: "w4", over: []))
  }

  @Test(
    "a list that went A -> B -> A is not the A a write read: the write is refused (ABA)",
    arguments: Backend.allCases)
  func abaIsRefused(_ backend: Backend) throws {
    let fixture = try storeWithABook(backend)
    defer { fixture.remove() }
    let store = fixture.store
    let a = #"["a"]"#
    #expect(try store.setShoppingList(bookID: "b1", items: a, write: "x1", over: []))
    let read = try #require(try store.shoppingList(bookID: "b1"))
    // Two writes of another process: A -> B -> A again.
    #expect(try store.setShoppingList(bookID: "b1", items: "[]", write: "y1", over: ["x1"]))
    #expect(try store.setShoppingList(bookID: "b1", items: a, write: "y2", over: ["x1", "y1"]))
    // The list is A as read, but not the A read: a write over it would lose B's write.
    #expect(try store.shoppingList(bookID: "b1")?.items == read.items)
    #expect(
      try !store.setShoppingList(bookID: "b1", items: #"["z"]"#, write: "x2", over: read.writes))
    #expect(
      try store.shoppingList(bookID: "b1")
        == StoredShoppingList(items: a, writes: ["x1", "y1", "y2"]))
  }

  @Test(
    "a list keeps the IDs of its last 64 writes; a writer finds its own among them",
    arguments: Backend.allCases)
  func writesAreTrimmed(_ backend: Backend) throws {
    let fixture = try storeWithABook(backend)
    defer { fixture.remove() }
    let store = fixture.store
    var writes: [String] = []
    let count = StoredShoppingList.maxWrites + 6
    for number in 0..<count {
      let id = "w\(number)"
      #expect(
        try store.setShoppingList(bookID: "b1", items: "[\(number)]", write: id, over: writes))
      writes = try #require(try store.shoppingList(bookID: "b1")).writes
    }
    #expect(StoredShoppingList.maxWrites == 64)
    let stored = try #require(try store.shoppingList(bookID: "b1"))
    #expect(stored.items == "[\(count - 1)]")
    #expect(stored.writes == (6..<count).map { "w\($0)" })
    #expect(stored.head == "w\(count - 1)")
    #expect(stored.contains(write: "w6") && !stored.contains(write: "w5"))
  }

  @Test("a write's ID is one word of a few characters: anything else is refused, saying why")
  func badWriteIDs() throws {
    let fixture = try storeWithABook(.sqlite)
    defer { fixture.remove() }
    let store = fixture.store
    for id in ["", "a b", String(repeating: "f", count: 33), "é"] {
      #expect(throws: StoreError.self) {
        try store.setShoppingList(bookID: "b1", items: "[1]", write: id, over: [])
      }
    }
    #expect(try store.shoppingList(bookID: "b1") == StoredShoppingList(items: "[]"))
    #expect(
      try store.setShoppingList(bookID: "b1", items: "[1]", write: "0123456789abcdef", over: []))
  }

  @Test("SQLite has no other process to hear from")
  func sqliteHasNoWatch() throws {
    let fixture = try StoreFixture(.sqlite)
    defer { fixture.remove() }
    #expect(fixture.store.watchShoppingLists { _ in } == nil)
  }

  @Test("on PostgreSQL, another process hears of each list stored, and of no refused write")
  func anotherProcessHears() throws {
    let fixture = try StoreFixture(.postgresql)
    defer { fixture.remove() }
    let writer = fixture.store
    let other = try fixture.reopen()
    try writer.createRecipeBook(id: "b1", ownerToken: "own", client: nil, at: 1)
    try writer.createRecipeBook(id: "b2", ownerToken: "own2", client: nil, at: 1)
    let heard = Mutex<[String]>([])
    let watch = try #require(other.watchShoppingLists { id in heard.withLock { $0.append(id) } })
    defer { watch.cancel() }
    // The watch's LISTEN may not have reached the server yet: write until it hears one.
    var stored: [String] = []
    var writes = 0
    let deadline = ContinuousClock.now + .seconds(20)
    while heard.withLock({ $0.isEmpty }) && ContinuousClock.now < deadline {
      let items = #"["\#(writes)"]"#
      let id = "w\(writes)"
      #expect(try writer.setShoppingList(bookID: "b1", items: items, write: id, over: stored))
      stored = Array((stored + [id]).suffix(StoredShoppingList.maxWrites))
      writes += 1
      Thread.sleep(forTimeInterval: 0.05)
    }
    #expect(heard.withLock { $0.first } == "b1")
    // Once listening, every write is heard, in order, and a refused one is not.
    heard.withLock { $0 = [] }
    #expect(try !writer.setShoppingList(bookID: "b2", items: "[1]", write: "v1", over: ["v0"]))
    #expect(try writer.setShoppingList(bookID: "b2", items: "[1]", write: "v2", over: []))
    #expect(try writer.setShoppingList(bookID: "b1", items: "[2]", write: "last", over: stored))
    // NB: writes of the first loop may still be heard first; what follows them is exact.
    let afterLoop = { heard.withLock { Array($0.drop { $0 == "b1" }) } }
    let end = ContinuousClock.now + .seconds(20)
    while afterLoop().count < 2 && ContinuousClock.now < end {
      Thread.sleep(forTimeInterval: 0.02)
    }
    #expect(afterLoop() == ["b2", "b1"])
  }
}
