import ArgumentParser

// NB: a bad option or value is one line on standard error and exit code 64 (EX_USAGE); help
// and every other outcome are ArgumentParser's own (serve's help with more below it).
do {
  var command = try PlayfieldCommand.parseAsRoot()
  try command.run()
} catch {
  let code = PlayfieldCommand.exitCode(for: error)
  // NB: `serve --help` (or `help serve`) ends with the exit codes and the limits, below the
  // options ArgumentParser lists.
  if code == .success, case let help = PlayfieldCommand.fullMessage(for: error),
    help.contains("USAGE: playfield serve")
  {
    let options = help.hasSuffix("\n") ? String(help.dropLast()) : help
    print(options + "\n\n" + Serve.helpEpilogue)
    PlayfieldCommand.exit()
  }
  guard code == .validationFailure, !PlayfieldCommand.message(for: error).isEmpty else {
    PlayfieldCommand.exit(withError: error)
  }
  var standardError = StandardError()
  print("Error: \(PlayfieldCommand.message(for: error))", to: &standardError)
  PlayfieldCommand.exit(withError: ExitCode(code.rawValue))
}
