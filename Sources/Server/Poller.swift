import CPosix
import HTTP

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Readiness bits reported for a descriptor.
struct PollEvents: OptionSet, Sendable {
  let rawValue: UInt32
  static let readable = PollEvents(rawValue: 1 << 0)
  static let writable = PollEvents(rawValue: 1 << 1)
  /// The peer hung up or the socket failed.
  static let hangup = PollEvents(rawValue: 1 << 2)
  /// Wake only one of the loops waiting on a shared descriptor (the listener).
  static let exclusive = PollEvents(rawValue: 1 << 3)
}

#if os(Linux)
  /// Level-triggered readiness through epoll, plus an eventfd to wake the waiting thread.
  struct Poller {
    let fd: Int32
    let wakeFD: Int32
    /// Raw event bits of the last wait, reused so that waiting allocates nothing.
    private let raw = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: 256)

    init() throws {
      fd = epoll_create1(Int32(EPOLL_CLOEXEC))
      guard fd >= 0 else { throw SocketError("epoll_create1") }
      wakeFD = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
      guard wakeFD >= 0 else { throw SocketError("eventfd") }
      add(wakeFD, events: .readable)
    }

    private static func mask(_ events: PollEvents) -> UInt32 {
      var mask: UInt32 = 0
      // NB: EPOLLEXCLUSIVE refuses EPOLLRDHUP (EINVAL), so the shared listener asks for EPOLLIN only.
      if events.contains(.readable) {
        mask |= EPOLLIN.rawValue | (events.contains(.exclusive) ? 0 : EPOLLRDHUP.rawValue)
      }
      if events.contains(.writable) { mask |= EPOLLOUT.rawValue }
      if events.contains(.exclusive) { mask |= EPOLLEXCLUSIVE.rawValue }
      return mask
    }

    func add(_ target: Int32, events: PollEvents) {
      let result = cposix_epoll_ctl(fd, EPOLL_CTL_ADD, target, Self.mask(events))
      assert(result == 0, "epoll_ctl(ADD) failed: \(SocketError("epoll_ctl"))")
    }

    func modify(_ target: Int32, events: PollEvents) {
      _ = cposix_epoll_ctl(fd, EPOLL_CTL_MOD, target, Self.mask(events))
    }

    func remove(_ target: Int32) {
      _ = cposix_epoll_ctl(fd, EPOLL_CTL_DEL, target, 0)
    }

    /// Frees the event buffer; the poller is unusable afterwards.
    func deallocate() {
      raw.deallocate()
    }

    /// Waits for readiness, at most `milliseconds`; fills `fds` and `events`, returns how many.
    // NB: milliseconds, not a `Duration`: its `components` cost about 190 instructions each,
    // and a loop waits twice per request served one at a time (issue 31).
    func wait(into fds: inout [Int32], _ events: inout [PollEvents], milliseconds: Int32) -> Int {
      let count = fds.withUnsafeMutableBufferPointer { fdBuffer in
        cposix_epoll_wait(
          fd, fdBuffer.baseAddress, raw.baseAddress, Int32(min(fdBuffer.count, raw.count)),
          milliseconds)
      }
      guard count > 0 else { return 0 }
      for i in 0..<Int(count) {
        var ready: PollEvents = []
        if raw[i] & (EPOLLIN.rawValue | EPOLLRDHUP.rawValue) != 0 { ready.insert(.readable) }
        if raw[i] & EPOLLOUT.rawValue != 0 { ready.insert(.writable) }
        if raw[i] & (EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0 { ready.insert(.hangup) }
        events[i] = ready
      }
      return Int(count)
    }

    func wake() {
      var one: UInt64 = 1
      _ = write(wakeFD, &one, 8)
    }

    func drainWake() {
      var value: UInt64 = 0
      _ = read(wakeFD, &value, 8)
    }
  }
#else
  /// Readiness through kqueue, plus a pipe to wake the waiting thread.
  struct Poller {
    let fd: Int32
    let wakeFD: Int32
    let wakeWriteFD: Int32

    init() throws {
      fd = kqueue()
      guard fd >= 0 else { throw SocketError("kqueue") }
      var pair: [Int32] = [0, 0]
      guard pipe(&pair) == 0 else { throw SocketError("pipe") }
      wakeFD = pair[0]
      wakeWriteFD = pair[1]
      for end in pair { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
      add(wakeFD, events: .readable)
    }

    private func change(_ target: Int32, filter: Int16, enable: Bool) {
      var event = Darwin.kevent(
        ident: UInt(target), filter: filter, flags: UInt16(enable ? EV_ADD : EV_DELETE),
        fflags: 0, data: 0, udata: nil)
      _ = kevent(fd, &event, 1, nil, 0, nil)
    }

    func add(_ target: Int32, events: PollEvents) {
      modify(target, events: events)
    }

    func modify(_ target: Int32, events: PollEvents) {
      change(target, filter: Int16(EVFILT_READ), enable: events.contains(.readable))
      change(target, filter: Int16(EVFILT_WRITE), enable: events.contains(.writable))
    }

    func remove(_ target: Int32) {
      change(target, filter: Int16(EVFILT_READ), enable: false)
      change(target, filter: Int16(EVFILT_WRITE), enable: false)
    }

    func deallocate() {}

    func wait(into fds: inout [Int32], _ events: inout [PollEvents], milliseconds: Int32) -> Int {
      var ready = [Darwin.kevent](repeating: Darwin.kevent(), count: fds.count)
      var limit = timespec(
        tv_sec: Int(milliseconds / 1000), tv_nsec: Int(milliseconds % 1000) * 1_000_000)
      let count = kevent(fd, nil, 0, &ready, Int32(ready.count), &limit)
      guard count > 0 else { return 0 }
      for i in 0..<Int(count) {
        fds[i] = Int32(ready[i].ident)
        var bits: PollEvents = []
        if ready[i].filter == Int16(EVFILT_READ) { bits.insert(.readable) }
        if ready[i].filter == Int16(EVFILT_WRITE) { bits.insert(.writable) }
        if ready[i].flags & UInt16(EV_EOF) != 0 { bits.insert(.readable) }
        events[i] = bits
      }
      return Int(count)
    }

    func wake() {
      var one: UInt8 = 1
      _ = write(wakeWriteFD, &one, 1)
    }

    func drainWake() {
      var sink = [UInt8](repeating: 0, count: 64)
      _ = read(wakeFD, &sink, 64)
    }
  }
#endif
