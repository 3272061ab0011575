// `PlayfieldFuzz TARGET [libFuzzer options] [corpus folders]`: runs one libFuzzer target over
// a pure parser; `PlayfieldFuzz list` names every target. Built instrumented by `make fuzz` (see Tests/fuzz/README.md).
import FuzzShim
import Playfield
import Simulation

#if canImport(Glibc)
  import Glibc
#endif

/// Writes `text` to standard error.
func complain(_ text: String) {
  var text = text + "\n"
  text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

let arguments = CommandLine.arguments
if arguments.count == 3, arguments[1] == "write-snapshots" {
  // Seeds for the snapshot corpus: each model's default state after a few ticks.
  for (index, type) in DemoRegistry.models.enumerated() {
    guard var model = try? type.init(config: .object([:]), seed: 7) else { continue }
    for _ in 0..<10 { _ = model.step(checked: []) }
    let bytes = [UInt8(index)] + model.snapshot()
    let file = fopen("\(arguments[2])/\(type.kind)", "wb")
    _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
    fclose(file)
  }
  exit(0)
}
if arguments.count == 2, arguments[1] == "list" {
  // Every target and its cost factor, one a line: what `fuzz.sh` runs when named none.
  for target in FuzzTarget.allCases { print(target.rawValue, target.costFactor) }
  exit(0)
}
guard arguments.count >= 2, let target = FuzzTarget(rawValue: arguments[1]) else {
  let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
  complain("usage: PlayfieldFuzz TARGET [libFuzzer options]; targets: \(names)")
  exit(2)
}
FuzzTarget.selected = target

// libFuzzer reads argv[0] and its own options: leave the target name out.
let argv = CommandLine.unsafeArgv
var forwarded: [UnsafeMutablePointer<CChar>?] = [argv[0]]
for index in 2..<Int(CommandLine.argc) { forwarded.append(argv[index]) }
forwarded.append(nil)
var argc = Int32(forwarded.count - 1)
let status = forwarded.withUnsafeMutableBufferPointer { buffer in
  var pointer = buffer.baseAddress
  return playfield_fuzz_run_driver(&argc, &pointer) { data, size in
    FuzzTarget.selected.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
  }
}
if status == -1 {
  complain("this build has no libFuzzer: build it with `make fuzz`")
  exit(2)
}
exit(status)
