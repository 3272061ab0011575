import Storage

extension DatabaseFileCheck: Error {}

extension StorageJournal {
  /// Checks that the database file is still the one opened, logging once when it stops being
  /// so (and once when it is back).
  func checkFile() -> DatabaseFileCheck {
    let check = store.fileCheck
    let changed = lastFileCheck.withLock { last in
      defer { last = check }
      return last != check
    }
    if changed {
      if check == .same {
        logger.notice("storage: \(check)")
      } else {
        logger.critical("storage: \(check); restart the server to open a new database")
      }
    }
    return check
  }
}
