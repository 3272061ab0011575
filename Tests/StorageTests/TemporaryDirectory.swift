import Foundation

/// A fresh directory under the system's temp folder, removed by `remove()`.
struct TemporaryDirectory {
  let path: String

  init() throws {
    path =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("playfield-storage-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  /// The path of `name` inside the directory.
  func file(_ name: String) -> String {
    path + "/" + name
  }

  func remove() {
    try? FileManager.default.removeItem(atPath: path)
  }
}
