import Foundation
import Storage

// Opens a SQLite store as a separate process for the one-process-per-file tests:
// `StorageLockProbe PATH HOLDER [--hold]`. Prints `opened` (and, with --hold, keeps the store
// open until killed, or 60 s at most), or the error's one line and exits 3.
let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
  print("usage: StorageLockProbe PATH HOLDER [--hold]")
  exit(2)
}
do {
  let store = try SQLiteSessionStore(path: arguments[1], holder: arguments[2])
  // NB: FileHandle writes at once; print would sit in a buffer while the process waits.
  FileHandle.standardOutput.write(Data("opened\n".utf8))
  if arguments.contains("--hold") {
    Thread.sleep(forTimeInterval: 60)
  }
  withExtendedLifetime(store) {}
} catch {
  FileHandle.standardOutput.write(Data("\(error)\n".utf8))
  exit(3)
}
