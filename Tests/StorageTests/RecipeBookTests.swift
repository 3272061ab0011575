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
