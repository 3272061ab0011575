import Storage

extension Demo {
  /// The recipe book: imports recipe pages, JSON-LD and book exports (`/api/recipes`), keeps
  /// them in the store with full-text search and tags, and shares a live shopping list.
  static let recipes = Demo(
    page: "recipes", title: "Recipes",
    summary: "A recipe book that imports web pages, scales, converts, shops and cooks with you.",
    seed: "My Favorite Recipes", group: .explorers,
    routes: { context in
      let api = RecipeAPI(
        store: context.store, wallClock: context.environment.wallClock,
        random: context.environment.random, limits: context.environment.limits,
        fetchAllowedHosts: context.environment.recipeFetchAllowedHosts,
        sharedStore: context.environment.databasePath.map(PostgresURL.isPostgreSQL) ?? false)
      // NB: the changes its devices were told of are stored before the process ends.
      context.atShutdown.add { [shopping = api.shopping] in
        _ = shopping.flush(timeout: ShoppingHub.shutdownWait)
      }
      return api.routes
    })
}
