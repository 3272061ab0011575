import Foundation

/// Runs programs for the tests through posix_spawn and waitpid.
///
/// NB: not Foundation's Process, which takes a child for running until every process holding
/// a descriptor it passed down has exited: a server that `pg_ctl start` leaves behind would
/// keep the call waiting for ever.
enum Command {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// Runs `executable` with `arguments` (as `user`, through runuser, when given) to its end and
  /// returns its exit status and output (kept in a file, never a pipe); throws when it cannot
  /// start or outlives `timeout` seconds (it is then killed).
  @discardableResult
  static func run(
    _ executable: String, _ arguments: [String], as user: String? = nil, timeout: Double = 120
  ) throws -> (status: Int32, output: String) {
    let log = FileManager.default.temporaryDirectory
      .appendingPathComponent("playfield-command-\(UUID().uuidString).log").path
    defer { try? FileManager.default.removeItem(atPath: log) }
    let command = user.map { ["/usr/sbin/runuser", "-u", $0, "--", executable] } ?? [executable]
    let pid = try spawn(command + arguments, output: log)
    let deadline = Date(timeIntervalSinceNow: timeout)
    var status: Int32 = 0
    while waitpid(pid, &status, WNOHANG) == 0 {
      guard Date() < deadline else {
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
        throw Failure(description: "\(command + arguments) took over \(timeout) s")
      }
      usleep(10_000)
    }
    let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    // NB: WIFEXITED and WEXITSTATUS are macros Swift cannot import.
    let exited = status & 0x7F == 0
    return (exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F), text)
  }

  /// Starts `command` in the background, its output going to `output` (or nowhere), and
  /// returns its pid; whoever starts it reaps or abandons it.
  static func spawn(_ command: [String], output: String = "/dev/null") throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    var environment = ProcessInfo.processInfo.environment
    environment["LC_ALL"] = "C"
    let argv = command.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    // NB: a child inherits its spawning thread's blocked signals; start it with none blocked.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
    var pid: pid_t = 0
    let result = posix_spawn(&pid, command[0], &actions, &attributes, argv, envp)
    guard result == 0 else {
      throw Failure(description: "cannot start \(command[0]): \(String(cString: strerror(result)))")
    }
    return pid
  }
}
