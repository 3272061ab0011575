"""PettingZoo environments over a Playfield server, named as PettingZoo's own are:

    from playfield_client.pettingzoo import street_soccer_v0
    env = street_soccer_v0.env(base_url="http://127.0.0.1:8080")

Install the `[pettingzoo]` extra.
"""
from . import street_soccer_v0

__all__ = ["street_soccer_v0"]
