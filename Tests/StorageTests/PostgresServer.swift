import Foundation
import Synchronization

@testable import Storage

/// A PostgreSQL server of the tests' own: `initdb` into a temporary folder, `postgres` on a
/// free port with its socket in that folder, stopped when the test process exits (and, should
/// the process die first, by a small watchdog that outlives it by at most a second).
///
/// As root (CI) the server runs as the `postgres` user Debian's package makes (or `nobody`),
/// since PostgreSQL refuses to run as root. `shared` is one server for the whole test process;
/// each test makes its own database in it (`makeDatabase`). Without the PostgreSQL binaries
/// the tests fail, saying to run `make test-deps`.
final class PostgresServer: Sendable {
  /// The folder holding the data, the socket and the log.
  let directory: String
  let port: Int
  private let binaries: String
  private let user: String?
  private let admin: Mutex<PostgresConnection?> = Mutex(nil)

  /// The server the tests share, started by the first test that asks.
  static var shared: PostgresServer {
    get throws { try sharedServer.get() }
  }

  private static let sharedServer = Result { () throws -> PostgresServer in
    let server = try PostgresServer()
    atexit { PostgresServer.stopAtExit() }
    return server
  }

  /// Makes and starts a server; `durable` keeps PostgreSQL's defaults (fsync on), otherwise
  /// fsync is off, which loses nothing a process crash could lose but spares the disk.
  init(durable: Bool = false) throws {
    binaries = try Self.findBinaries()
    user = getuid() == 0 ? (getpwnam("postgres") == nil ? "nobody" : "postgres") : nil
    directory = "/tmp/playfield-pg-\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    if let user, let account = getpwnam(user) {
      chown(directory, account.pointee.pw_uid, account.pointee.pw_gid)
    }
    let initdb = try Command.run(
      binaries + "/initdb",
      [
        "-D", directory + "/data", "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C",
        "--no-sync",
      ], as: user)
    guard initdb.status == 0 else {
      throw Command.Failure(description: "initdb failed: \(initdb.output)")
    }
    var settings = [
      "listen_addresses = '127.0.0.1'", "unix_socket_directories = '\(directory)'",
      "max_connections = 100", "shared_buffers = 32MB", "logging_collector = off",
    ]
    if !durable { settings += ["fsync = off", "full_page_writes = off"] }
    let configuration = try FileHandle(forWritingAtPath: directory + "/data/postgresql.conf")
      .unwrap("no postgresql.conf in \(directory)/data")
    try configuration.seekToEnd()
    try configuration.write(contentsOf: Data(("\n" + settings.joined(separator: "\n") + "\n").utf8))
    try configuration.close()
    port = try Self.freePort()
    try start()
    _ = try Command.spawn([
      "/bin/sh", "-c",
      """
      while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done
      kill -QUIT $(head -1 '\(directory)/data/postmaster.pid') 2>/dev/null
      sleep 2; rm -rf '\(directory)'
      """,
    ])
  }

  /// A URL for `database` through the Unix socket.
  func url(_ database: String) -> String {
    "postgresql://postgres@/\(database)?host=\(directory)&port=\(port)"
  }

  /// The same database over TCP on 127.0.0.1.
  func tcpURL(_ database: String) -> String {
    "postgresql://postgres@127.0.0.1:\(port)/\(database)"
  }

  /// Starts the server (again), waiting until it takes connections.
  func start() throws {
    let started = try Command.run(
      binaries + "/pg_ctl",
      [
        "start", "-w", "-t", "120", "-D", directory + "/data", "-l", directory + "/server.log",
        "-o", "-p \(port)",
      ], as: user, timeout: 150)
    guard started.status == 0 else {
      let log = (try? String(contentsOfFile: directory + "/server.log", encoding: .utf8)) ?? ""
      throw Command.Failure(description: "pg_ctl start failed: \(started.output) \(log)")
    }
  }

  /// Stops the server cleanly (connections are cut, as when an administrator stops it).
  func stop() throws {
    try Command.run(
      binaries + "/pg_ctl", ["stop", "-w", "-t", "60", "-m", "fast", "-D", directory + "/data"],
      as: user, timeout: 90)
  }

  /// Stops the server at once and deletes its folder.
  func destroy() {
    _ = try? Command.run(
      binaries + "/pg_ctl", ["stop", "-w", "-m", "immediate", "-D", directory + "/data"],
      as: user, timeout: 60)
    try? FileManager.default.removeItem(atPath: directory)
  }

  /// A new, empty database (from template0), its name.
  func makeDatabase() throws -> String {
    let name =
      "test_\(UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: ""))"
    // NB: FILE_COPY copies template0's files; the default (WAL_LOG) would also write them all
    // to the WAL, about 8 MB for each test.
    try administer {
      try $0.execute("CREATE DATABASE \(name) TEMPLATE template0 STRATEGY FILE_COPY")
    }
    return name
  }

  /// Drops a database, cutting any connection to it.
  func dropDatabase(_ name: String) {
    _ = try? administer { try $0.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)") }
  }

  /// Runs `body` on a connection to the `postgres` database, as the superuser.
  @discardableResult
  func administer<T: Sendable>(_ body: (PostgresConnection) throws -> T) throws -> T {
    try admin.withLock { connection in
      if connection?.isConnected != true {
        connection = try PostgresConnection(url: url("postgres"))
      }
      return try body(connection!)
    }
  }

  /// The binaries of the newest PostgreSQL installed, or a failure that says how to get them.
  private static func findBinaries() throws -> String {
    let root = "/usr/lib/postgresql"
    var folders: [String]
    if let folder = ProcessInfo.processInfo.environment["PLAYFIELD_POSTGRES_BIN"] {
      folders = [folder]
    } else {
      let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
      folders = versions.sorted { (Int($0) ?? 0) < (Int($1) ?? 0) }.map { "\(root)/\($0)/bin" }
    }
    folders = folders.filter {
      FileManager.default.isExecutableFile(atPath: $0 + "/initdb")
        && FileManager.default.isExecutableFile(atPath: $0 + "/pg_ctl")
    }
    guard let newest = folders.last else {
      throw Command.Failure(
        description:
          "PostgreSQL's server binaries (initdb, pg_ctl) are not in \(root)/*/bin"
          + " (or PLAYFIELD_POSTGRES_BIN): run `make test-deps`, which installs Debian's postgresql"
      )
    }
    return newest
  }

  /// A TCP port nothing listens on now.
  private static func freePort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
      }
    }
    guard bound else { throw Command.Failure(description: "no free port: errno \(errno)") }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  /// Asks the shared server, if one started, to stop at once (the watchdog deletes its folder).
  private static func stopAtExit() {
    guard case .success(let server) = sharedServer,
      let pid = try? String(
        contentsOfFile: server.directory + "/data/postmaster.pid", encoding: .utf8
      )
      .split(separator: "\n").first.flatMap({ Int32($0) })
    else { return }
    kill(pid, SIGQUIT)
  }
}

extension Optional {
  /// The value, or a failure saying `message`.
  func unwrap(_ message: String) throws -> Wrapped {
    guard let self else { throw Command.Failure(description: message) }
    return self
  }
}
