import HTTP
import JSON
import Server
import Storage
import Synchronization
import WebSocket

/// `/api/recipes`: import pages, JSON-LD and book exports; list, read, tag, delete and export
/// the recipes of a book; hand out and revoke its links.
///
/// Which book: the one a token opens (`Authorization: Bearer T` or `?token=T`: the owner's
/// token, a read-write link's or a read-only link's), or, with no token, the client's own book,
/// made by its first save (whose answer carries the owner token, once). See docs/protocol.md
/// "Recipes".
final class RecipeAPI: Sendable {
  let store: (any SessionStore)?
  let wallClock: @Sendable () -> Double
  /// Random bytes for book ids and tokens.
  let random: @Sendable (Int) -> [UInt8]
  let maxImportBytes: Int
  /// Largest message a shopping-list device may send (`--shopping-message-bytes`).
  let maxShoppingMessageBytes: Int
  private let window: Mutex<ImportWindow>
  /// The live shopping lists.
  let shopping: ShoppingHub
  /// Fetches the pages of imports by URL, guarded (`--recipe-fetch-*`).
  let fetcher: RecipeFetcher
  /// Where imports by URL run, a few at a time, each charged to its client
  /// (`--recipe-fetches`, `--recipe-fetches-per-client`, `--recipe-fetch-queue`), one
  /// address's on at most half of them.
  let fetches: StoreCalls
  /// Book exports being built or written (`--recipe-exports`).
  let exports: ExportPlaces

  init(
    store: (any SessionStore)?, wallClock: @escaping @Sendable () -> Double,
    random: @escaping @Sendable (Int) -> [UInt8], limits: Limits,
    fetchAllowedHosts: [String] = [], sharedStore: Bool = false
  ) {
    self.store = store
    self.wallClock = wallClock
    self.random = random
    self.maxImportBytes = limits[.recipeImportBytes]
    self.maxShoppingMessageBytes = limits[.shoppingMessageBytes]
    self.window = Mutex(ImportWindow(perMinute: limits[.recipeImportsPerMinute]))
    // NB: on a shared store another process may hold a channel of a book too (its devices
    // came while this one was away); each reads the other's changes every second.
    self.shopping = ShoppingHub(
      store: store, changesPerMinute: limits[.shoppingChangesPerMinute], wallClock: wallClock,
      watchInterval: sharedStore ? .seconds(1) : nil)
    self.exports = ExportPlaces(capacity: limits[.recipeExports])
    self.fetcher = RecipeFetcher(
      allowedHosts: Set(fetchAllowedHosts.map { $0.lowercased() }),
      maxBytes: limits[.recipeFetchBytes], timeout: limits[.recipeFetchTimeout])
    // NB: the same fair queue and workers as store calls, with their own bounds: a fetch waits
    // for the network for seconds, and must hold neither an event loop nor a store worker.
    var fetchLimits: FairQueue<StoreCalls.Job>.Limits = limits.queue(
      running: limits[.recipeFetches], waiting: .recipeFetchQueue,
      perClient: .recipeFetchesPerClient, deadline: .recipeFetchTimeout)
    fetchLimits.cheapRunning = 0
    // NB: a slow site holds a fetch until the timeout; one address pointing every fetch at
    // one would leave none for anyone else.
    fetchLimits.expensivePerAddress = max(1, limits[.recipeFetches] / 2)
    self.fetches = StoreCalls(limits: fetchLimits)
  }

  var routes: [Route] {
    [
      Route([.post], "/api/recipes/import", [.api, .guardsState, .store]) { call in
        self.importing(call.request, client: call.client)
      },
      Route([.get], "/api/recipes", [.api, .guardsState, .store], storeCost: Self.listCost) {
        call in
        .response(self.list(call.request, client: call.client))
      },
      Route(
        [.get], "/api/recipes/export", [.api, .guardsState, .store], storeCost: StoreCalls.costly
      ) { call in
        .response(self.export(call.request, client: call.client))
      },
      Route([.get], "/api/recipes/book", [.api, .guardsState, .store]) { call in
        .response(self.describe(call.request, client: call.client))
      },
      Route([.post, .delete], "/api/recipes/links", [.api, .guardsState, .store]) { call in
        .response(self.links(call.request, client: call.client))
      },
      Route([.get], "/ws/recipes/shopping", [.guardsState, .store]) { call in
        self.shoppingSocket(call.request, client: call.client, origins: call.app.origins)
      },
      Route([.get, .patch, .delete], "/api/recipes/{id}", [.api, .guardsState, .store]) {
        (call, id: RecipeID) in
        .response(self.one(call.request, id: id.value, client: call.client))
      },
    ]
  }

  // MARK: Import

  /// Imports the page, JSON-LD or book export sent as the body; with `?url=URL` and no body,
  /// the page the server fetches from URL (on a fetch worker, guarded: `RecipeFetcher`).
  func importing(_ request: Request, client: ClientKey) -> Reply {
    do {
      let query = try Self.query(request)
      if let wait = window.withLock({ $0.admit(client.description, now: wallClock()) }) {
        var error = APIError(
          .tooManyRequests, "too many recipe imports this minute (--recipe-imports-per-minute)")
        error.headers.set("Retry-After", String(Int(wait.rounded(.up))))
        throw error
      }
      if let url = query["url"], !request.declaresBody || request.body.isEmpty {
        _ = try RecipeFetcher.host(of: url)
        return fetching(url, request, query: query, client: client)
      }
      let upload = try RecipeUpload(request, url: query["url"], maxBytes: maxImportBytes)
      return .response(try answer(upload, request, query: query, client: client))
    } catch {
      return .response(Self.failure(error))
    }
  }

  /// Fetches `url` on a fetch worker and answers as an import of its page would.
  private func fetching(
    _ url: String, _ request: Request, query: QueryParameters, client: ClientKey
  ) -> Reply {
    let pending = PendingResponse()
    let refusal = fetches.run(
      client: client, cost: Self.fetchCost,
      { [self] in
        guard !pending.isAbandoned else { return }
        do {
          let page = try fetcher.fetch(url)
          let upload = try RecipeUpload(
            fetched: page.body, contentType: page.contentType, url: page.url)
          pending.succeed(try answer(upload, request, query: query, client: client))
        } catch {
          pending.succeed(Self.failure(error))
        }
      },
      expired: { retryAfter in
        var error = APIError(
          .serviceUnavailable,
          "too many pages are being fetched for imports (--recipe-fetches); ask again")
        error.headers.set("Retry-After", String(retryAfter))
        pending.succeed(error.response)
      })
    if let refusal {
      var error =
        refusal.tooManyFromClient
        ? APIError(
          .tooManyRequests,
          "this client has too many imports by URL under way (--recipe-fetches-per-client)")
        : APIError(
          .serviceUnavailable,
          "too many imports by URL are waiting (--recipe-fetch-queue); ask again")
      error.headers.set("Retry-After", String(refusal.retryAfter))
      return .response(error.response)
    }
    return .later(pending)
  }

  /// The estimated seconds of a fetch: expensive (past `FairQueue.Limits.cheapSeconds`), so
  /// that it counts in its address's share of the fetches.
  private static let fetchCost = 1.0

  /// The answer to an import of `upload`: the recipe (or book) read, or, with `save=1`, stored.
  private func answer(
    _ upload: RecipeUpload, _ request: Request, query: QueryParameters, client: ClientKey
  ) throws -> Response {
    let save = ["1", "true", "yes"].contains(query["save"] ?? "")
    let tags = query.pairs.filter { $0.name == "tag" }.map(\.value)
    switch upload {
    case .recipes(let found) where !save:
      return .json(found[0])
    case .book(let entries) where !save:
      return .json(Self.exported(entries.map { ($0.recipe, $0.tags) }))
    case .recipes(let found):
      return try saving([(found[0], tags)], request, client: client) { book, stored in
        var answer = Self.full(stored[0])
        if let book { answer = Self.adding(["book": book], to: answer) }
        return .json(answer, status: .created)
      }
    case .book(let entries):
      return try saving(entries.map { ($0.recipe, $0.tags) }, request, client: client) {
        book, stored in
        var answer: [String: JSONValue] = [
          "imported": .number(Double(stored.count)),
          "ids": .array(stored.map { .number(Double($0.id)) }),
        ]
        if let book { answer["book"] = book }
        return .json(.object(answer), status: .created)
      }
    }
  }

  private static func failure(_ error: any Error) -> Response {
    (error as? APIError)?.response ?? APIError(storage: error).response
  }

  /// Stores `recipes` in the caller's book (made first when it has none) and answers with
  /// `make(new book's id and owner token, or nil; the stored recipes)`.
  private func saving(
    _ recipes: [(JSONValue, [String])], _ request: Request, client: ClientKey,
    _ make: (JSONValue?, [StoredRecipe]) -> Response
  ) throws -> Response {
    guard let store else { throw APIError.noDatabase }
    var made: JSONValue?
    let book: RecipeBook
    if let found = try self.book(request, client: client, store: store, need: .write) {
      book = found
    } else {
      let id = SessionRegistry.identifier(random(9))
      let token = SessionRegistry.identifier(random(16))
      book = try store.createRecipeBook(
        id: id, ownerToken: token, client: client.description, at: wallClock())
      made = .object(["id": .string(id), "token": .string(token)])
    }
    let new = recipes.map { recipe, tags in
      NewRecipe(
        name: recipe["name"]?.stringValue ?? "Untitled recipe", recipe: recipe.jsonString,
        tags: tags, searchText: Self.searchText(recipe),
        summary: JSONValue.object(Self.listedFields(of: recipe)).jsonString)
    }
    let stored = try store.addRecipes(new, bookID: book.id, at: wallClock())
    return make(made, stored)
  }

  // MARK: Reading

  /// Estimated seconds of a listing: each recipe listed is read from its stored summary, a few
  /// KB at most (a list of 100 of the largest recipes a book takes, 2.2 ms; of 250, 4.6 ms;
  /// docs/benchmarks.md). Recipes stored before summaries were are parsed whole (2 ms for the
  /// largest): a list of those holds its worker longer than this says, and its address is
  /// charged the rest when it ends (`FairQueue.finish`'s `took`).
  @Sendable static func listCost(_ request: Request) -> Double {
    let asked = try? query(request)
    let limit = asked.flatMap { try? whole($0, "limit", default: 100, in: 1...1000) } ?? 100
    return 0.001 + Double(limit) * 5e-5
  }

  func list(_ request: Request, client: ClientKey) -> Response {
    answer(request, client: client, need: .read) { store, book in
      let query = try Self.query(request)
      var sort = RecipeQuery.Sort.name
      if let name = query["sort"] {
        guard let chosen = RecipeQuery.Sort(rawValue: name) else {
          let known = RecipeQuery.Sort.allCases.map(\.rawValue).joined(separator: ", ")
          throw APIError(.badRequest, "sort must be one of \(known)", field: "sort")
        }
        sort = chosen
      }
      let limit = try Self.whole(query, "limit", default: 100, in: 1...1000)
      let offset = try Self.whole(query, "offset", default: 0, in: 0...10_000_000)
      // NB: one more than asked, to say whether there are more.
      let listed = RecipeQuery(
        text: query["q"], tag: query["tag"], sort: sort, limit: limit + 1, offset: offset)
      // NB: each word is a prefix search of its own: 2,000 one-letter words in a URL held a
      // store worker for 0.7 s over a book of 2,000 recipes.
      let words = listed.searchWords.count
      guard words <= RecipeQuery.maxWords else {
        throw APIError(
          .badRequest,
          "the search has \(words) words, more than the \(RecipeQuery.maxWords) one search may have",
          field: "q")
      }
      let recipes = try book.map { try store.listedRecipes(bookID: $0.id, query: listed) } ?? []
      return .json(
        .object([
          "book": Self.bookJSON(book),
          "recipes": .array(recipes.prefix(limit).map(Self.summary)),
          "offset": .number(Double(offset)),
          "more": .bool(recipes.count > limit),
        ]))
    }
  }

  /// The whole number `name` of `query`, `fallback` when absent; 400 outside `range`.
  private static func whole(
    _ query: QueryParameters, _ name: String, default fallback: Int, in range: ClosedRange<Int>
  ) throws(APIError) -> Int {
    guard let text = query[name] else { return fallback }
    guard let value = Int(text), range.contains(value) else {
      throw APIError(
        .badRequest,
        "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)",
        field: name)
    }
    return value
  }

  func export(_ request: Request, client: ClientKey) -> Response {
    answer(request, client: client, need: .read) { store, book in
      let place = try exportPlace(for: client)
      let recipes =
        try book.map {
          // NB: every recipe, however many the book may hold (--recipes-per-book).
          try store.recipes(bookID: $0.id, query: RecipeQuery(sort: .oldest, limit: 1_000_000))
        } ?? []
      let entries = recipes.map { ((try? JSONValue.parse($0.recipe)) ?? .null, $0.tags) }
      var response = Response.json(Self.exported(entries))
      response.headers.set(
        "Content-Disposition", "attachment; filename=\"recipe-book.json\"")
      response.heldUntilWritten = place
      return response
    }
  }

  /// A place for an export to `client`'s address, or the answer that says none is free.
  private func exportPlace(for client: ClientKey) throws(APIError) -> ExportPlaces.Place {
    do {
      return try exports.take(for: client.address)
    } catch {
      var refusal =
        error == .address
        ? APIError(
          .tooManyRequests,
          "an export to this address is still being built or written (--recipe-exports)")
        : APIError(.serviceUnavailable, "too many book exports at once (--recipe-exports)")
      refusal.headers.set("Retry-After", "5")
      throw refusal
    }
  }

  func describe(_ request: Request, client: ClientKey) -> Response {
    answer(request, client: client, need: .read) { _, book in
      .json(Self.bookJSON(book))
    }
  }

  /// GET one recipe, PATCH its tags (`{"tags": [...]}`), DELETE it.
  func one(_ request: Request, id: Int64, client: ClientKey) -> Response {
    let need: RecipeAccess = request.method == .get ? .read : .write
    return answer(request, client: client, need: need) { store, book in
      let missing = APIError(.notFound, "this book has no recipe \(id)")
      guard let book else { throw missing }
      switch request.method {
      case .delete:
        guard try store.deleteRecipe(bookID: book.id, id: id) else { throw missing }
        return Response(status: .noContent, headers: ["Cache-Control": "no-store"])
      case .patch:
        let body = try JSONBody(request, example: "{\"tags\": [\"...\"]}")
        try body.allowOnly(["tags"])
        guard case .array(let list) = try body.value("tags"),
          let tags = Optional(list.compactMap(\.stringValue)), tags.count == list.count
        else { throw APIError(.badRequest, "tags must be an array of strings", field: "tags") }
        guard
          let stored = try store.setRecipeTags(bookID: book.id, id: id, tags: tags, at: wallClock())
        else { throw missing }
        return .json(Self.full(stored))
      default:
        guard let stored = try store.recipe(bookID: book.id, id: id) else { throw missing }
        return .json(Self.full(stored))
      }
    }
  }

  // MARK: Shopping list

  /// `/ws/recipes/shopping` (`?token=T`, or the client's own book): the book's live list.
  func shoppingSocket(_ request: Request, client: ClientKey, origins: OriginPolicy) -> Reply {
    if let refusal = origins.check(request) { return .response(refusal) }
    let found: RecipeBook?
    do {
      guard let store else { throw APIError.noDatabase }
      // The list itself is read by the hub, in order with the writes of the book's list.
      found = try book(request, client: client, store: store, need: .read)
    } catch let error as APIError {
      return .response(error.response)
    } catch {
      return .response(APIError(storage: error).response)
    }
    guard let book = found else {
      return .response(APIError(.notFound, "save a recipe first: there is no book yet").response)
    }
    // NB: a change is parsed whole on the event loop: a message over its bound is refused by its
    // frame's header, unread (close 1009).
    var options = WebSocketHandshake.Options()
    options.configuration.maxMessageSize = maxShoppingMessageBytes
    switch WebSocketHandshake.evaluate(request, options: options) {
    case .accept(let accepted):
      return .webSocket(
        accepted,
        ShoppingSocketHandler(
          hub: shopping, bookID: book.id, canChange: book.access >= .write,
          viaLink: SessionAPI.token(in: request) != nil && book.access < .owner,
          client: client.description))
    case .reject(let response):
      return .response(response)
    }
  }

  // MARK: Links

  /// POST makes a new read-only and read-write link (the old ones stop working); DELETE
  /// revokes both. Only the owner's token may.
  func links(_ request: Request, client: ClientKey) -> Response {
    answer(request, client: client, need: .owner) { store, book in
      guard let book else { throw APIError(.notFound, "there is no book yet") }
      if request.method == .delete {
        try store.setRecipeBookLinks(bookID: book.id, readToken: nil, writeToken: nil)
        shopping.closeLinked(bookID: book.id, reason: "the owner revoked this link")
        return Response(status: .noContent, headers: ["Cache-Control": "no-store"])
      }
      let read = SessionRegistry.identifier(random(16))
      let write = SessionRegistry.identifier(random(16))
      try store.setRecipeBookLinks(bookID: book.id, readToken: read, writeToken: write)
      shopping.closeLinked(
        bookID: book.id, reason: "the owner replaced this link; ask for the new one")
      return .json(.object(["read": .string(read), "write": .string(write)]))
    }
  }

  // MARK: Books and answers

  /// The book the request names with its token, or the client's own (nil before its first
  /// save); throws 403 when the token opens none or grants less than `need`.
  private func book(
    _ request: Request, client: ClientKey, store: any SessionStore, need: RecipeAccess
  ) throws -> RecipeBook? {
    guard let token = SessionAPI.token(in: request) else {
      guard need != .owner else {
        throw APIError(
          .forbidden, "send the book's owner token to manage its links", field: "token")
      }
      return try store.clientRecipeBook(client: client.description)
    }
    guard let book = try store.recipeBook(token: token) else {
      throw APIError(.forbidden, "no recipe book opens with this token (revoked?)", field: "token")
    }
    guard book.access >= need else {
      throw APIError(.forbidden, StoreError.recipeBookAccess(needed: need.rawValue).description)
    }
    return book
  }

  /// What `make` answers with the store and the caller's book, or the error thrown.
  private func answer(
    _ request: Request, client: ClientKey, need: RecipeAccess,
    _ make: (any SessionStore, RecipeBook?) throws -> Response
  ) -> Response {
    APIError.answer(with: store) { store in
      try make(store, try book(request, client: client, store: store, need: need))
    }
  }

  private static func query(_ request: Request) throws(APIError) -> QueryParameters {
    do {
      return try QueryParameters(request.query)
    } catch {
      throw APIError(.badRequest, error.message)
    }
  }

  private static func bookJSON(_ book: RecipeBook?) -> JSONValue {
    guard let book else { return .null }
    var fields: [String: JSONValue] = [
      "id": .string(book.id), "access": .string(book.access.rawValue),
    ]
    if book.access == .owner {
      fields["readLink"] = .bool(book.hasReadLink)
      fields["writeLink"] = .bool(book.hasWriteLink)
    }
    return .object(fields)
  }

  /// The stored schema.org Recipe with its `id` and `tags`.
  static func full(_ stored: StoredRecipe) -> JSONValue {
    let recipe = (try? JSONValue.parse(stored.recipe)) ?? .object([:])
    return adding(
      ["id": .number(Double(stored.id)), "tags": .array(stored.tags.map(JSONValue.string))],
      to: recipe)
  }

  /// A recipe as a list shows it: its stored summary (`listedFields`, kept beside it since
  /// it was saved), or for one saved before, the same fields of its whole recipe.
  private static func summary(_ listed: ListedRecipe) -> JSONValue {
    var fields: [String: JSONValue] =
      if let summary = listed.summary, case .object(let stored)? = try? JSONValue.parse(summary) {
        stored
      } else {
        listedFields(of: listed.recipe.flatMap { try? JSONValue.parse($0) } ?? .object([:]))
      }
    fields["id"] = .number(Double(listed.id))
    fields["name"] = .string(listed.name)
    fields["tags"] = .array(listed.tags.map(JSONValue.string))
    fields["createdAt"] = .number(listed.createdAt.rounded())
    return .object(fields)
  }

  /// What a list shows of `recipe` besides its id, name, tags and age, a few KB at most: its
  /// description's first `listedDescription` characters (cut with "…"), its image, total time
  /// and yield unless one takes more than `listedValueBytes` of JSON. The whole recipe says
  /// the rest (`GET /api/recipes/ID`).
  static func listedFields(of recipe: JSONValue) -> [String: JSONValue] {
    var fields: [String: JSONValue] = [:]
    for key in ["image", "totalTime", "recipeYield"] {
      if let value = recipe[key], value.jsonString.utf8.count <= listedValueBytes {
        fields[key] = value
      }
    }
    if let description = recipe["description"]?.stringValue {
      fields["description"] = .string(
        description.count > listedDescription
          ? description.prefix(listedDescription - 1) + "…" : description)
    }
    return fields
  }

  /// Characters of a description a list shows.
  static let listedDescription = 300
  /// Bytes of JSON of one other value a list shows at most.
  static let listedValueBytes = 1024

  private static func adding(_ extra: [String: JSONValue], to value: JSONValue) -> JSONValue {
    guard case .object(var fields) = value else { return value }
    fields.merge(extra) { _, new in new }
    return .object(fields)
  }

  /// A whole-book export: what `POST /api/recipes/import` takes back unchanged.
  static func exported(_ entries: [(JSONValue, [String])]) -> JSONValue {
    .object([
      "playfield": .string(RecipeUpload.bookFormat), "version": 1,
      "recipes": .array(
        entries.map { recipe, tags in
          .object(["recipe": recipe, "tags": .array(tags.map(JSONValue.string))])
        }),
    ])
  }

  /// The words full-text search looks in: name, description, ingredients, steps, keywords,
  /// category and cuisine.
  static func searchText(_ recipe: JSONValue) -> String {
    var parts: [String] = []
    func collect(_ value: JSONValue?) {
      switch value {
      case .string(let text)?: parts.append(text)
      case .array(let items)?:
        for item in items { collect(item) }
      case .object?:
        collect(value?["name"])
        collect(value?["text"])
        collect(value?["itemListElement"])
      default: break
      }
    }
    for key in [
      "name", "description", "recipeIngredient", "recipeInstructions", "keywords",
      "recipeCategory", "recipeCuisine",
    ] {
      collect(recipe[key])
    }
    return parts.joined(separator: "\n")
  }
}
