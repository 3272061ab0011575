"""The Autobahn-style conformance script against the real server's /ws/echo."""
import pathlib
import subprocess
import sys

import pytest

SCRIPT = pathlib.Path(__file__).resolve().parent.parent / "conformance" / "ws_conformance.py"


@pytest.mark.slow
@pytest.mark.timeout(660)
def test_echo_passes_every_conformance_case(playfield):
    # 10 messages per deflate case instead of 100: the script is CPU-bound in Python there.
    result = subprocess.run(
        [sys.executable, str(SCRIPT), playfield.ws_url + "/ws/echo", "--count", "10"],
        capture_output=True, text=True, timeout=600)
    failures = [line for line in result.stdout.splitlines() if line.startswith("FAIL")]
    summary = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else result.stderr
    assert result.returncode == 0 and not failures, "\n".join(failures + [summary])
