import Dispatch
import Synchronization
import Testing

@testable import Playfield

/// Messages of one stream decided on several threads leave in the order they were decided
/// (the `stored` watermark notices: before, each thread sent its own after leaving the lock, so
/// a later watermark could overtake an earlier one).
@Suite struct OrderedOutboxTests {
  @Test func aLaterPostWaitsForTheSendUnderWayAndFollowsIt() {
    let outbox = OrderedOutbox<Int>()
    let sent = Mutex<[[Int]]>([])
    let sending = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    #expect(outbox.post([1]))
    DispatchQueue.global().async {
      outbox.drain { batch in
        sent.withLock { $0.append(batch) }
        if batch == [1] {
          sending.signal()
          _ = release.wait(timeout: .now() + 10)
        }
      }
      done.signal()
    }
    #expect(sending.wait(timeout: .now() + 10) == .success)
    // Decided later, while the first is being sent: queued, and sent by the sender after it.
    #expect(!outbox.post([2, 3]))
    #expect(sent.withLock { $0 } == [[1]])
    release.signal()
    #expect(done.wait(timeout: .now() + 10) == .success)
    #expect(sent.withLock { $0 } == [[1], [2, 3]])
    // Nobody sends now: the next post makes its caller the sender.
    #expect(outbox.post([4]))
    outbox.drain { batch in sent.withLock { $0.append(batch) } }
    #expect(sent.withLock { $0 } == [[1], [2, 3], [4]])
  }

  @Test func aPostFromWithinASendIsSentAfterItOnTheSameThread() {
    let outbox = OrderedOutbox<String>()
    var sent: [[String]] = []
    #expect(outbox.post(["first"]))
    outbox.drain { batch in
      sent.append(batch)
      // A send that comes back into the stream (a socket closed by a failed write) only
      // queues, never deadlocks.
      if batch == ["first"] { #expect(!outbox.post(["second"])) }
    }
    #expect(sent == [["first"], ["second"]])
    #expect(!outbox.post([]))
  }
}
