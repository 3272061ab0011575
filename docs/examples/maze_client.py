#!/usr/bin/env python3
"""Drives a Playfield maze from a script: creates a session over the HTTP API, builds walls by
toggling cells, then steers the ball with tilt and prints what it sees.

    pip install ./clients/python
    python3 docs/examples/maze_client.py --url http://127.0.0.1:8080

Open the printed watch link in a browser to see it happen. The client is in clients/python
(its README lists every method); the protocol underneath is in docs/protocol.md.
"""
import argparse
import sys
import time

from playfield_client import Client, Event, MazeFrame, PlayfieldError, ServerError

# Cells to make solid, as (row, col): a wall with a gap across the middle of the 12 x 12 grid,
# and a short spur beside the start.
WALLS = [(3, col) for col in range(1, 11) if col != 8] + [(5, 3), (6, 3), (7, 3)]

# The steering plan: (tilt x, tilt y) in g, held for that many seconds. y > 0 rolls up.
PLAN = [((0.6, 0.0), 0.6), ((0.0, 0.6), 0.6), ((-0.6, 0.0), 0.6), ((0.0, -0.6), 0.6)]


def show(cells, ball, cell_size):
    """The maze as text, with the ball as 'o'."""
    row = int(ball[1] // cell_size[1])
    col = int(ball[0] // cell_size[0])
    lines = []
    for r, line in enumerate(cells):
        chars = list(line.replace(".", " ").replace("#", "█"))
        if r == row:
            chars[col] = "o"
        lines.append("  |" + "".join(chars) + "|")
    return "\n".join(lines)


class Maze:
    """What the script knows about the session, kept current from the messages."""

    def __init__(self, hello):
        self.cells = hello.data["cells"]
        self.cell_size = (hello.data["cellWidth"], hello.data["cellHeight"])
        self.bumps = 0

    def follow(self, session, seconds):
        """Reads the session's messages for `seconds`: maze changes, bumps, rejections."""
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            try:
                message = session.receive(timeout=left)
            except TimeoutError:
                break
            if isinstance(message, Event) and message.name == "maze":
                self.cells = message["cells"]
            elif isinstance(message, Event) and message.name == "bump":
                self.bumps += 1
            elif isinstance(message, Event) and message.name == "input-rejected":
                print("  rejected:", message["reason"])


def run(url, seconds_per_move):
    client = Client(url)
    info = client.create_session("maze", {"restitution": 0.5})
    print(f"session {info.id} created; watch it at {url}{info.urls['watch']}")
    try:
        with client.connect(info) as session:
            hello = session.hello
            print(f"hello: {hello.kind} {hello.data['rows']}x{hello.data['columns']}, role {hello.role},"
                  f" ball radius {hello.data['radius']:.1f} px at {list(hello.frame.ball)}")
            maze = Maze(hello)

            # Build the walls: one toggle per cell; each change comes back as a `maze` event.
            for row, col in WALLS:
                session.toggle(row, col)
            maze.follow(session, 0.3)
            print(f"built {len(WALLS)} blocks (maze revision {session.frame.revision}):")
            print(show(maze.cells, session.frame.ball, maze.cell_size))

            # A mistake on purpose: the server's error is raised, and the stream goes on.
            try:
                session.tilt(5, 0)
            except ServerError as error:
                print(f"error {error.code}: {error.message}")

            # Steer: hold each tilt for a while and report where the ball got to.
            for (x, y), _ in PLAN:
                session.tilt(x, y)
                maze.follow(session, seconds_per_move)
                frame = session.frame
                assert isinstance(frame, MazeFrame)
                print(f"tilt ({x:+.1f}, {y:+.1f}) g -> ball at ({frame.ball[0]:6.1f}, {frame.ball[1]:6.1f})"
                      f" px, tick {frame.tick}, {maze.bumps} bumps so far")
            session.tilt(0, 0)
            print(show(maze.cells, session.frame.ball, maze.cell_size))
    finally:
        client.delete_session(info)
        print("session deleted")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8080", help="the Playfield server")
    parser.add_argument("--seconds", type=float, default=1.5, help="seconds to hold each tilt")
    args = parser.parse_args()
    try:
        run(args.url.rstrip("/"), args.seconds)
    except PlayfieldError as error:
        sys.exit(f"playfield: {error}")


if __name__ == "__main__":
    main()
