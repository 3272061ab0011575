#!/usr/bin/env python3
"""Drives a Playfield maze from a script: creates a session over the HTTP API, builds walls by
toggling cells, then steers the ball with tilt and prints what it sees.

    pip install websockets
    python3 docs/examples/maze_client.py --url http://127.0.0.1:8080

Open the printed watch link in a browser to see it happen. The protocol is in
docs/protocol.md.
"""
import argparse
import asyncio
import json
import sys
import urllib.request

from websockets.asyncio.client import connect

# Cells to make solid, as (row, col): a wall with a gap across the middle of the 12 x 12 grid,
# and a short spur beside the start.
WALLS = [(3, col) for col in range(1, 11) if col != 8] + [(5, 3), (6, 3), (7, 3)]

# The steering plan: (tilt x, tilt y) in g, held for that many seconds. y > 0 rolls up.
PLAN = [((0.6, 0.0), 0.6), ((0.0, 0.6), 0.6), ((-0.6, 0.0), 0.6), ((0.0, -0.6), 0.6)]


def create_session(url, config):
    """POST /api/sessions; returns the new session (id, token, urls)."""
    body = json.dumps({"kind": "maze", "config": config}).encode()
    request = urllib.request.Request(
        url + "/api/sessions", data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def delete_session(url, session):
    """DELETE /api/sessions/ID with the control token."""
    request = urllib.request.Request(
        url + "/api/sessions/" + session["id"], method="DELETE",
        headers={"Authorization": "Bearer " + session["token"]})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status


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
        self.cells = hello["cells"]
        self.cell_size = (hello["cellWidth"], hello["cellHeight"])
        self.ball = hello["ball"]
        self.tick = hello["tick"]
        self.revision = hello["revision"]
        self.bumps = 0
        self.errors = []

    def take(self, message):
        kind = message["type"]
        if kind == "frame":
            self.tick = message["tick"]
            self.ball = message["ball"]
        elif kind == "event" and message["name"] == "maze":
            self.cells = message["cells"]
            self.revision = message["revision"]
        elif kind == "event" and message["name"] == "bump":
            self.bumps += 1
        elif kind == "event" and message["name"] == "input-rejected":
            print("  rejected:", message["reason"])
        elif kind == "error":
            self.errors.append(message)


async def pump(socket, maze, seconds):
    """Reads messages for `seconds`, updating `maze`."""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while (left := end - loop.time()) > 0:
        try:
            raw = await asyncio.wait_for(socket.recv(), timeout=left)
        except TimeoutError:
            break
        maze.take(json.loads(raw))


async def run(url, seconds_per_move):
    session = create_session(url, {"restitution": 0.5})
    print(f"session {session['id']} created; watch it at {url}{session['urls']['watch']}")
    socket_url = url.replace("http", "ws", 1) + session["urls"]["socket"] + "?token=" + session["token"]
    try:
        async with connect(socket_url) as socket:
            hello = json.loads(await socket.recv())
            assert hello["type"] == "hello", hello
            print(f"hello: {hello['kind']} {hello['rows']}x{hello['columns']}, role {hello['role']},"
                  f" ball radius {hello['radius']:.1f} px at {hello['ball']}")
            maze = Maze(hello)

            # Build the walls: one toggle per cell; each change comes back as a `maze` event.
            for row, col in WALLS:
                await socket.send(json.dumps({"type": "toggle", "row": row, "col": col}))
            await pump(socket, maze, 0.3)
            print(f"built {len(WALLS)} blocks (maze revision {maze.revision}):")
            print(show(maze.cells, maze.ball, maze.cell_size))

            # A mistake on purpose: the server answers with an error and the stream goes on.
            await socket.send(json.dumps({"type": "tilt", "x": 5, "y": 0}))
            await pump(socket, maze, 0.1)
            for error in maze.errors:
                print(f"error {error['error']}: {error['message']}")

            # Steer: hold each tilt for a while and report where the ball got to.
            for (x, y), _ in PLAN:
                await socket.send(json.dumps({"type": "tilt", "x": x, "y": y}))
                await pump(socket, maze, seconds_per_move)
                print(f"tilt ({x:+.1f}, {y:+.1f}) g -> ball at ({maze.ball[0]:6.1f}, {maze.ball[1]:6.1f})"
                      f" px, tick {maze.tick}, {maze.bumps} bumps so far")
            await socket.send(json.dumps({"type": "tilt", "x": 0, "y": 0}))
            print(show(maze.cells, maze.ball, maze.cell_size))
    finally:
        print("session deleted" if delete_session(url, session) == 204 else "could not delete")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8080", help="the Playfield server")
    parser.add_argument("--seconds", type=float, default=1.5, help="seconds to hold each tilt")
    args = parser.parse_args()
    try:
        asyncio.run(run(args.url.rstrip("/"), args.seconds))
    except OSError as error:
        sys.exit(f"cannot reach {args.url}: {error}")


if __name__ == "__main__":
    main()
