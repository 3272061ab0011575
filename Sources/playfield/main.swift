import ArgumentParser

// NB: a bad option or value is one line on standard error and exit code 64 (EX_USAGE); help
// and every other outcome are ArgumentParser's own.
do {
  var command = try PlayfieldCommand.parseAsRoot()
  try command.run()
} catch {
  let code = PlayfieldCommand.exitCode(for: error)
  guard code == .validationFailure, !PlayfieldCommand.message(for: error).isEmpty else {
    PlayfieldCommand.exit(withError: error)
  }
  var standardError = StandardError()
  print("Error: \(PlayfieldCommand.message(for: error))", to: &standardError)
  PlayfieldCommand.exit(withError: ExitCode(code.rawValue))
}
