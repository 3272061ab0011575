/// A `mayStepAgain` for driving a machine in tests: yes `steps` times, then no.
func allowing(_ steps: Int) -> () -> Bool {
  var taken = 0
  return {
    taken += 1
    return taken <= steps
  }
}
