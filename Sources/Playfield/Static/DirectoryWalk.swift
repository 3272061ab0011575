#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The files below a folder, as paths relative to it ("js/lib/session.js"), skipping hidden
/// names; nil when the folder itself cannot be opened. Subfolders that cannot be opened are
/// skipped. Symbolic links are listed as files, never followed as folders.
func filesBelow(_ root: String) -> [String]? {
  var files: [String] = []
  var stack = [""]
  while let folder = stack.popLast() {
    guard let directory = opendir(root + "/" + folder) else {
      if folder.isEmpty { return nil }
      continue
    }
    defer { closedir(directory) }
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard !name.hasPrefix(".") else { continue }
      let path = folder.isEmpty ? name : folder + "/" + name
      if isDirectory(entry.pointee.d_type, path: root + "/" + path) {
        stack.append(path)
      } else {
        files.append(path)
      }
    }
  }
  return files
}

/// Whether a directory entry is a folder; asks the file system when the entry does not say
/// (`DT_UNKNOWN`, as on some file systems). Symbolic links are not folders here.
private func isDirectory(_ type: UInt8, path: String) -> Bool {
  if type != UInt8(DT_UNKNOWN) { return type == UInt8(DT_DIR) }
  var info = stat()
  return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
}
