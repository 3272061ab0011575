"""The documented example client (docs/examples/maze_client.py) runs against a real server."""
import json
import pathlib
import re
import subprocess
import sys
import urllib.request

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "docs" / "examples" / "maze_client.py"


def test_example_maze_client_builds_walls_and_steers(playfield):
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "--url", playfield.url, "--seconds", "0.5"],
        capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    session = re.search(r"session (\S+) created", out).group(1)
    assert "role controller" in out
    # Every toggle became a maze change, and the walls are in the printed grid.
    assert re.search(r"built 12 blocks \(maze revision 12\)", out), out
    assert "███████ ██" in out
    # The deliberate bad tilt got an error naming the field and its range.
    assert "error bad-field: x: must be a number from -2 to 2" in out
    # Tilting right moved the ball right of the centre (180 px), and ticks went on.
    moves = re.findall(r"ball at \(\s*([\d.]+),\s*([\d.]+)\) px, tick (\d+)", out)
    assert len(moves) == 4
    assert float(moves[0][0]) > 200
    ticks = [int(tick) for _, _, tick in moves]
    assert ticks == sorted(ticks) and ticks[-1] - ticks[0] >= 60
    # The script cleans up after itself.
    assert "session deleted" in out
    with urllib.request.urlopen(playfield.url + "/api/sessions") as response:
        listed = {s["id"] for s in json.load(response)["sessions"]}
    assert session not in listed
