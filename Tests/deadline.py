"""Bounds on whole waits, for every Python test (Tests/ and clients/python/tests/).

A per-read timeout is no bound on a loop: a session streams 60 frames a second, so a loop that
waits for one particular message with `recv(timeout=5)` waits for ever when that message never
comes. Every loop that waits takes what is left of one `Deadline` for each read instead.
(pytest-timeout's per-test limit in pytest.ini is the backstop behind these.)
"""
import asyncio
import json
import time


class Deadline:
    """A point in time after which a wait has failed."""

    def __init__(self, seconds, what="the wait"):
        self.seconds = seconds
        self.what = what
        self.end = time.monotonic() + seconds

    def left(self):
        """Seconds left, for the next read; fails the test when none are."""
        left = self.end - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"{self.what}: not done within {self.seconds:g} s")
        return left

    @property
    def passed(self):
        return time.monotonic() >= self.end


def receive_until(ws, predicate, seconds=10.0, what="the expected message", seen=None):
    """Reads JSON messages from a `websockets.sync` connection until `predicate(message)`;
    returns that message. Every message read is appended to `seen` when given."""
    deadline = Deadline(seconds, f"waiting for {what}")
    while True:
        message = json.loads(ws.recv(timeout=deadline.left()))
        if seen is not None:
            seen.append(message)
        if predicate(message):
            return message


async def receive_until_async(ws, predicate, seconds=10.0, what="the expected message", seen=None):
    """`receive_until` for a `websockets.asyncio` connection."""
    deadline = Deadline(seconds, f"waiting for {what}")
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), deadline.left()))
        if seen is not None:
            seen.append(message)
        if predicate(message):
            return message


async def receive_one(ws, seconds=10.0):
    """The next message of a `websockets.asyncio` connection, parsed, within `seconds`."""
    return json.loads(await asyncio.wait_for(ws.recv(), seconds))


def wait_until(condition, seconds=10.0, what="the condition", interval=0.05):
    """Polls `condition()` until it returns something true, and returns that."""
    deadline = Deadline(seconds, f"waiting for {what}")
    while not (result := condition()):
        time.sleep(min(interval, deadline.left()))
    return result


def read_line(stream, seconds, what="a line"):
    """One line from a subprocess's pipe, within `seconds` (a blocking readline that never
    returns would hang the test run)."""
    import selectors
    with selectors.DefaultSelector() as selector:
        selector.register(stream, selectors.EVENT_READ)
        if not selector.select(seconds):
            raise TimeoutError(f"{what}: nothing within {seconds:g} s")
    return stream.readline()
