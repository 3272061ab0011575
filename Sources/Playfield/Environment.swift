import Logging

/// Everything the app depends on, in one value that tests replace piece by piece.
public struct Environment: Sendable {
  /// Folder served at `/`.
  public var publicDirectory: String
  /// Folder of `.mustache` page templates.
  public var templatesDirectory: String
  /// SQLite database file.
  public var databasePath: String
  /// Extra origins allowed to open session WebSockets, e.g. `https://example.com`.
  public var allowedOrigins: [String] = []
  public var logger: Logger

  public init(
    publicDirectory: String, templatesDirectory: String, databasePath: String, logger: Logger
  ) {
    self.publicDirectory = publicDirectory
    self.templatesDirectory = templatesDirectory
    self.databasePath = databasePath
    self.logger = logger
  }
}
