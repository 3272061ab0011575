extension SQLSessionStore {
  @discardableResult
  public func createRecipeBook(id: String, ownerToken: String, client: String?, at time: Double)
    throws -> RecipeBook
  {
    let perClient = limits.maxRecipeBooksPerClient
    return try withWriter { database in
      try database.transaction {
        try database.serialize(.recipes)
        if let client {
          let made = try database.count(
            "SELECT COUNT(*) FROM recipe_books WHERE client = ?", [.text(client)])
          guard made < perClient else {
            throw StoreError.invalidValue(
              field: "book", reason: "cannot be made: you have \(perClient) books already")
          }
        }
        try database.execute(
          "INSERT INTO recipe_books (id, owner_hash, client, created_at) VALUES (?, ?, ?, ?)",
          [
            .text(id), .text(TokenHash.hash(token: ownerToken)), client.map { .text($0) } ?? .null,
            .real(time),
          ])
        return RecipeBook(id: id, access: .owner, hasReadLink: false, hasWriteLink: false)
      }
    }
  }

  public func recipeBook(token: String) throws -> RecipeBook? {
    let hash = TokenHash.hash(token: token)
    return try withReader { database in
      try database.query(
        """
        SELECT id, CASE WHEN owner_hash = ?1 THEN 2 WHEN writer_hash = ?1 THEN 1 ELSE 0 END,
          \(Self.linkColumns)
        FROM recipe_books WHERE owner_hash = ?1 OR writer_hash = ?1 OR reader_hash = ?1
        """, [.text(hash)]
      ) { row in
        RecipeBook(
          id: row.string(0), access: [.read, .write, .owner][Int(row.int64(1))],
          hasReadLink: row.int64(2) != 0, hasWriteLink: row.int64(3) != 0)
      }.first
    }
  }

  public func clientRecipeBook(client: String) throws -> RecipeBook? {
    try withReader { database in
      try database.query(
        """
        SELECT id, \(Self.linkColumns) FROM recipe_books
        WHERE client = ? ORDER BY created_at LIMIT 1
        """, [.text(client)]
      ) { row in
        RecipeBook(
          id: row.string(0), access: .write, hasReadLink: row.int64(1) != 0,
          hasWriteLink: row.int64(2) != 0)
      }.first
    }
  }

  public func setRecipeBookLinks(bookID: String, readToken: String?, writeToken: String?) throws {
    let hash: (String?) -> SQLValue = { $0.map { .text(TokenHash.hash(token: $0)) } ?? .null }
    try withWriter { database in
      _ = try database.execute(
        "UPDATE recipe_books SET reader_hash = ?, writer_hash = ? WHERE id = ?",
        [hash(readToken), hash(writeToken), .text(bookID)])
    }
  }

  @discardableResult
  public func addRecipes(_ recipes: [NewRecipe], bookID: String, at time: Double) throws
    -> [StoredRecipe]
  {
    let limit = limits.maxRecipesPerBook
    let maxBytes = limits.maxRecipeBytes
    for recipe in recipes where recipe.recipe.utf8.count > maxBytes {
      throw StoreError.invalidValue(
        field: "recipe", reason: "\(recipe.name) is larger than \(maxBytes) bytes")
    }
    let tags = try recipes.map { try storedTags($0.tags) }
    let adding = recipes.reduce(0) { $0 + $1.recipe.utf8.count }
    let perClient = limits.maxRecipeBytesPerClient
    return try withWriter { database in
      try database.transaction {
        try database.serialize(.recipes)
        let count = try database.count(
          "SELECT COUNT(*) FROM recipes WHERE book_id = ?", [.text(bookID)])
        guard count + recipes.count <= limit else {
          throw StoreError.tooManyRecipes(limit: limit)
        }
        // NB: charged to whoever made the book, whoever imports into it (a write link's
        // holder too): the books one client made hold at most `perClient` bytes together.
        // Summing reads every recipe (20 ms for 64 MiB), so it is skipped while the count
        // alone shows they fit, as they do for books of a few hundred recipes.
        let makers = """
          FROM recipes WHERE book_id = ?1 OR book_id IN (SELECT id FROM recipe_books
            WHERE client = (SELECT client FROM recipe_books WHERE id = ?1))
          """
        let held = try database.count("SELECT COUNT(*) " + makers, [.text(bookID)])
        if held * maxBytes + adding > perClient {
          let bytes = database.dialect.byteLength("recipe")
          let heldBytes = try database.count(
            "SELECT COALESCE(SUM(\(bytes)), 0) " + makers, [.text(bookID)])
          guard heldBytes + adding <= perClient else {
            throw StoreError.tooManyRecipeBytes(limit: perClient)
          }
        }
        return try zip(recipes, tags).map { recipe, tags in
          try database.query(
            """
            INSERT INTO recipes
              (book_id, name, recipe, tags, search_text, created_at, updated_at, summary)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, ?7) RETURNING \(Self.recipeColumns)
            """,
            [
              .text(bookID), .text(recipe.name), .text(recipe.recipe),
              .text(tags), .text(recipe.searchText), .real(time),
              recipe.summary.map { .text($0) } ?? .null,
            ], row: Self.storedRecipe)[0]
        }
      }
    }
  }

  public func recipes(bookID: String, query: RecipeQuery) throws -> [StoredRecipe] {
    try matching(
      bookID: bookID, query: query, columns: Self.recipeColumns("r."),
      row: Self.storedRecipe)
  }

  public func listedRecipes(bookID: String, query: RecipeQuery) throws -> [ListedRecipe] {
    // NB: the whole recipe only for one stored before its summary was.
    try matching(
      bookID: bookID, query: query,
      columns: "r.id, r.name, r.tags, r.created_at, r.summary, "
        + "CASE WHEN r.summary IS NULL THEN r.recipe END"
    ) { row in
      ListedRecipe(
        id: row.int64(0), name: row.string(1),
        tags: Self.tags(row.string(2)), createdAt: row.double(3),
        summary: row.optionalString(4), recipe: row.optionalString(5))
    }
  }

  /// `columns` of the book's recipes that match `query`, in its order, each row made by `row`.
  private func matching<T: Sendable>(
    bookID: String, query: RecipeQuery, columns: String,
    row: @escaping (Connection.Row) -> T
  ) throws -> [T] {
    try withReader { database in
      var conditions = ["r.book_id = ?1"]
      var values: [SQLValue] = [.text(bookID)]
      if let search = database.dialect.recipeSearch(query, parameter: values.count + 1) {
        conditions.append(search.sql)
        values.append(search.value)
      } else if !query.searchWords.isEmpty || (query.text.map { !$0.isEmpty } ?? false) {
        return []
      }
      if let tag = query.tag.map(RecipeQuery.normalizedTag), !tag.isEmpty {
        conditions.append("r.tags LIKE ?\(values.count + 1)")
        values.append(.text("% \(tag) %"))
      }
      let order =
        switch query.sort {
        case .name: "lower(r.name), r.id"
        case .newest: "r.created_at DESC, r.id DESC"
        case .oldest: "r.created_at, r.id"
        }
      values.append(.integer(Int64(max(0, query.limit))))
      values.append(.integer(Int64(max(0, query.offset))))
      return try database.query(
        """
        SELECT \(columns) FROM recipes AS r
        WHERE \(conditions.joined(separator: " AND ")) ORDER BY \(order)
        LIMIT ?\(values.count - 1) OFFSET ?\(values.count)
        """, values, row: row)
    }
  }

  public func recipe(bookID: String, id: Int64) throws -> StoredRecipe? {
    try withReader { database in
      try database.query(
        "SELECT \(Self.recipeColumns) FROM recipes WHERE book_id = ? AND id = ?",
        [.text(bookID), .integer(id)], row: Self.storedRecipe
      ).first
    }
  }

  public func setRecipeTags(bookID: String, id: Int64, tags: [String], at time: Double) throws
    -> StoredRecipe?
  {
    let tags = try storedTags(tags)
    return try withWriter { database in
      try database.query(
        """
        UPDATE recipes SET tags = ?1, updated_at = ?2 WHERE book_id = ?3 AND id = ?4
        RETURNING \(Self.recipeColumns)
        """, [.text(tags), .real(time), .text(bookID), .integer(id)],
        row: Self.storedRecipe
      ).first
    }
  }

  @discardableResult
  public func deleteRecipe(bookID: String, id: Int64) throws -> Bool {
    try withWriter { database in
      try database.execute(
        "DELETE FROM recipes WHERE book_id = ? AND id = ?", [.text(bookID), .integer(id)]) > 0
    }
  }

  public func shoppingList(bookID: String) throws -> StoredShoppingList? {
    try withReader { database in
      try database.query(
        "SELECT shopping, shopping_writes FROM recipe_books WHERE id = ?", [.text(bookID)]
      ) {
        StoredShoppingList(
          items: $0.string(0), writes: StoredShoppingList.writes(column: $0.string(1)))
      }.first
    }
  }

  public func setShoppingList(
    bookID: String, items: String, write id: String, over writes: [String]
  ) throws -> Bool {
    guard StoredShoppingList.isValidWriteID(id) else {
      throw StoreError.invalidValue(
        field: "write",
        reason: "must be 1 to \(StoredShoppingList.maxWriteIDBytes) letters, "
          + "digits, '-', '_' or '.'")
    }
    let written = StoredShoppingList(items: items, writes: writes).written(items, by: id)
    return try withWriter { database in
      // NB: the whole lineage read stands for its newest write (IDs are unique): one compare
      // of a column, in both dialects, and no list compared or sent twice.
      let replaced =
        try database.execute(
          """
          UPDATE recipe_books SET shopping = ?, shopping_writes = ?
          WHERE id = ? AND shopping_writes = ?
          """,
          [
            .text(items), .text(StoredShoppingList.column(written.writes)), .text(bookID),
            .text(StoredShoppingList.column(writes)),
          ]) > 0
      // NB: after the write, so that a process told of it reads the new list; and never a
      // failure of the write, which has happened (the other processes also read every second).
      if replaced, let notify = database.dialect.notify(StoreWatch.shoppingLists, bookID) {
        _ = try? database.query(notify.sql, notify.values) { _ in () }
      }
      return replaced
    }
  }

  /// The tags as the `tags` column holds them (` a b c `): normalised, without repeats,
  /// sorted, each between spaces. At most `StoreLimits.maxTagsPerRecipe` of at most
  /// `maxTagCharacters` each; more throws (before, a PATCH or a book export could store
  /// megabytes of tags with every recipe, counted by no bound).
  private func storedTags(_ tags: [String]) throws -> String {
    let tags = Set(tags.map(RecipeQuery.normalizedTag).filter { !$0.isEmpty }).sorted()
    guard tags.count <= limits.maxTagsPerRecipe else {
      throw StoreError.invalidValue(
        field: "tags", reason: "are more than \(limits.maxTagsPerRecipe) for one recipe")
    }
    if let long = tags.first(where: { $0.count > limits.maxTagCharacters }) {
      throw StoreError.invalidValue(
        field: "tags",
        reason: "hold \(long.prefix(20))..., longer than \(limits.maxTagCharacters) characters")
    }
    return " " + tags.map { $0 + " " }.joined()
  }

  /// Whether the read-only and read-write links exist, as 0 or 1 in both dialects.
  private static var linkColumns: String {
    """
    CASE WHEN reader_hash IS NULL THEN 0 ELSE 1 END, \
    CASE WHEN writer_hash IS NULL THEN 0 ELSE 1 END
    """
  }

  private static var recipeColumns: String { recipeColumns("") }

  private static func recipeColumns(_ prefix: String) -> String {
    ["id", "book_id", "name", "recipe", "tags", "created_at", "updated_at"]
      .map { prefix + $0 }.joined(separator: ", ")
  }

  /// A recipe's tags from their column (' a b ').
  private static func tags(_ column: String) -> [String] {
    column.split(separator: " ").map(String.init)
  }

  private static func storedRecipe(_ row: Connection.Row) -> StoredRecipe {
    StoredRecipe(
      id: row.int64(0), bookID: row.string(1), name: row.string(2), recipe: row.string(3),
      tags: tags(row.string(4)), createdAt: row.double(5),
      updatedAt: row.double(6))
  }
}
