import JSON
import Simulation

/// Reads a batch `step` message (`/ws/batch`) whole before anything runs: a message with any
/// fault is refused with an error naming it, and no session is stepped.
///
///     {"type": "step", "id": 7, "slots": [0, 1], "count": 1,
///      "actions": [[0.5, -1], null], "inputs": [[1, {"type": "reset"}]]}
enum BatchRequest {
  static let fields: Set<String> = ["type", "id", "slots", "count", "actions", "inputs"]

  /// The slots to step, in order: `slots`, or every attached one when it is absent.
  static func slots(_ value: JSONValue?, attached: Int, limit: Int) -> Result<[Int], ClientError> {
    guard let value else {
      guard attached <= limit else {
        return .failure(
          ClientError(
            "too-many",
            "a step message steps at most \(limit) sessions (--batch-sessions-per-message); "
              + "this connection has \(attached): list the slots to step", field: "slots"))
      }
      return .success(Array(0..<attached))
    }
    guard let items = value.arrayValue, !items.isEmpty else {
      return .failure(
        ClientError("bad-field", "slots must be a non-empty array of slot numbers", field: "slots"))
    }
    guard items.count <= limit else {
      return .failure(
        ClientError(
          "too-many",
          "a step message steps at most \(limit) sessions (--batch-sessions-per-message), "
            + "not \(items.count)", field: "slots"))
    }
    var seen = Set<Int>()
    var slots: [Int] = []
    slots.reserveCapacity(items.count)
    for (index, item) in items.enumerated() {
      guard let slot = item.intValue, (0..<attached).contains(slot) else {
        return .failure(
          ClientError(
            "unknown-slot",
            "slots[\(index)]: \(item) is no slot of this connection "
              + "(attached: \(attached); attach a session first)", field: "slots"))
      }
      guard seen.insert(slot).inserted else {
        return .failure(
          ClientError("bad-field", "slots[\(index)]: slot \(slot) is listed twice", field: "slots"))
      }
      slots.append(slot)
    }
    return .success(slots)
  }

  /// Most inputs one step message may carry: all its sessions together
  /// (`--batch-inputs-per-message`), and one session (`--batch-inputs-per-session`).
  struct InputBounds: Sendable {
    var perMessage = Limit<Int>.batchInputsPerMessage.defaultValue
    var perSession = Limit<Int>.batchInputsPerSession.defaultValue
  }

  /// Each listed session's inputs (`inputs` for it, then its action) and tick count.
  static func entries(
    _ message: [String: JSONValue], slots: [Int], sessions: [LiveSession],
    model: any BatchStepping.Type, action: (type: String, fields: [String]), maxCount: Int,
    bounds: InputBounds = InputBounds()
  ) -> Result<[BatchStep.Entry], ClientError> {
    if let unknown = message.keys.first(where: { !fields.contains($0) }) {
      return .failure(
        ClientError(
          "bad-field",
          "unknown field \(unknown); a step has \(fields.sorted().joined(separator: ", "))",
          field: unknown))
    }
    var counts = [Int](repeating: 1, count: slots.count)
    switch message["count"] {
    case nil: break
    case .number(let number) where Int(exactly: number).map({ (1...maxCount).contains($0) }) == true:
      counts = [Int](repeating: Int(number), count: slots.count)
    case .array(let items) where items.count == slots.count:
      for (index, item) in items.enumerated() {
        guard let n = item.intValue, (1...maxCount).contains(n) else {
          return .failure(
            ClientError(
              "bad-field", "count[\(index)] must be an integer from 1 to \(maxCount)",
              field: "count"))
        }
        counts[index] = n
      }
    default:
      return .failure(
        ClientError(
          "bad-field",
          "count must be an integer from 1 to \(maxCount), or an array of one per slot (\(slots.count))",
          field: "count"))
    }
    var inputs = [[CheckedInput]](repeating: [], count: slots.count)
    if let value = message["inputs"] {
      guard let items = value.arrayValue else {
        return .failure(
          ClientError(
            "bad-field", "inputs must be an array of [slot, input] pairs", field: "inputs"))
      }
      // NB: counted before any input is checked, so that a huge list costs no model work.
      guard items.count <= bounds.perMessage else {
        return .failure(
          ClientError(
            "too-many-inputs",
            "a step message carries at most \(bounds.perMessage) inputs "
              + "(--batch-inputs-per-message), not \(items.count)", field: "inputs"))
      }
      let position = Dictionary(uniqueKeysWithValues: slots.enumerated().map { ($1, $0) })
      for (index, item) in items.enumerated() {
        guard let pair = item.arrayValue, pair.count == 2, let slot = pair[0].intValue,
          case .object = pair[1]
        else {
          return .failure(
            ClientError(
              "bad-field", "inputs[\(index)] must be [slot, {\"type\": ...}]", field: "inputs"))
        }
        guard let at = position[slot] else {
          return .failure(
            ClientError(
              "unknown-slot", "inputs[\(index)]: slot \(slot) is not stepped by this message",
              field: "inputs"))
        }
        guard inputs[at].count < bounds.perSession else {
          return .failure(
            ClientError(
              "too-many-inputs",
              "inputs[\(index)]: a step message gives one session at most \(bounds.perSession) "
                + "inputs (--batch-inputs-per-session); slot \(slot) has more", field: "inputs"))
        }
        switch check(pair[1], model: model, at: "inputs[\(index)]", field: "inputs") {
        case .success(let input): inputs[at].append(input)
        case .failure(let error): return .failure(error)
        }
      }
    }
    if let value = message["actions"] {
      guard let items = value.arrayValue, items.count == slots.count else {
        return .failure(
          ClientError(
            "bad-field",
            "actions must be an array of one action per slot (\(slots.count)), each null or "
              + "[\(action.fields.joined(separator: ", "))]", field: "actions"))
      }
      for (index, item) in items.enumerated() where !item.isNull {
        guard let items = item.arrayValue, items.count == action.fields.count,
          case let numbers = items.compactMap(\.doubleValue), numbers.count == items.count
        else {
          return .failure(
            ClientError(
              "bad-field",
              "actions[\(index)] must be null or \(action.fields.count) numbers "
                + "[\(action.fields.joined(separator: ", "))]", field: "actions"))
        }
        do {
          inputs[index].append(try model.batchInput(numbers))
        } catch {
          return .failure(
            ClientError("bad-field", "actions[\(index)]: \(error.description)", field: "actions"))
        }
      }
    }
    return .success(
      slots.indices.map {
        BatchStep.Entry(session: sessions[slots[$0]], inputs: inputs[$0], count: counts[$0])
      })
  }

  /// Counts every entry's inputs against its session's log bound, all or none; on a full log
  /// counts nothing and names the session.
  static func admit(_ entries: [BatchStep.Entry], to log: InputLogCap) -> ClientError? {
    var inputs: [(String, Int)] = []
    inputs.reserveCapacity(entries.count)
    for entry in entries {
      for input in entry.inputs { inputs.append((entry.session.id, input.loggedSize)) }
    }
    guard let (id, bound) = log.admit(inputs) else { return nil }
    return ClientError(bound.code, "session \(id): \(log.message(bound))")
  }

  /// Gives back the log room of every entry's inputs (a step admitted, then refused whole).
  static func refund(_ entries: [BatchStep.Entry], to log: InputLogCap) {
    for entry in entries {
      for input in entry.inputs { log.refund(entry.session.id, bytes: input.loggedSize) }
    }
  }

  /// One input checked as the model checks a controller's.
  private static func check(
    _ message: JSONValue, model: any BatchStepping.Type, at place: String, field: String
  ) -> Result<CheckedInput, ClientError> {
    do {
      guard let input = try model.checkedInput(from: message, sentBy: .controller) else {
        let type = message["type"]?.stringValue ?? "?"
        return .failure(
          ClientError("unknown-type", "\(place): unknown input type \"\(type)\"", field: field))
      }
      return .success(input)
    } catch {
      return .failure(ClientError("bad-field", "\(place): \(error.description)", field: field))
    }
  }
}
