"""Issue 17, finding 1: browsers get a client family (the `playfield_client` cookie), each with
its own quotas; scripts stay keyed by address, ids the server never issued count as the address,
and minting families never gets one address more than its cap."""
import asyncio
import http.client
import json
import secrets

from websockets.asyncio.client import connect

from deadline import receive_until_async
from helpers import request


def call(server, source, method, path, cookie=None, body=None):
    """One request from loopback address `source`; returns (status, headers, parsed body)."""
    connection = http.client.HTTPConnection(server.host, server.port, timeout=10,
                                            source_address=(source, 0))
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if cookie:
        headers["Cookie"] = cookie
    connection.request(method, path, body=json.dumps(body) if body is not None else None,
                       headers=headers)
    response = connection.getresponse()
    raw = response.read()
    connection.close()
    return response.status, response.headers, json.loads(raw) if raw.startswith(b"{") else raw


def family(server, source):
    """Loads a page as a browser without the cookie would; returns the cookie it is given."""
    status, headers, _ = call(server, source, "GET", "/")
    assert status == 200
    set_cookie = headers["Set-Cookie"]
    assert "HttpOnly" in set_cookie and "SameSite=Strict" in set_cookie and "Path=/" in set_cookie
    return set_cookie.split(";", 1)[0]


def create(server, source, cookie=None):
    return call(server, source, "POST", "/api/sessions", cookie, {"kind": "maze"})


def live(server):
    """The ids of the sessions in memory (parked ones are not listed)."""
    return {s["id"] for s in request(server.url + "/api/sessions")[2]["sessions"]}


def test_two_families_on_one_address_each_get_their_own_quota(start_playfield):
    server = start_playfield("--sessions-per-client", "2")
    tab_a, tab_b = family(server, "127.0.0.21"), family(server, "127.0.0.21")
    assert tab_a != tab_b
    made = {name: [create(server, "127.0.0.21", cookie)[2]["id"] for _ in range(3)]
            for name, cookie in [("a", tab_a), ("b", tab_b), ("script", None)]}
    # Each client keeps two in memory: its third create parked one of its own, not another's.
    kept = live(server)
    for ids in made.values():
        assert len(set(ids) & kept) == 2
    assert len(kept) == 6
    # A page load with the cookie does not issue another.
    status, headers, _ = call(server, "127.0.0.21", "GET", "/sessions", tab_a)
    assert status == 200 and headers["Set-Cookie"] is None


def test_an_id_the_server_never_issued_gets_the_address_quota(start_playfield):
    server = start_playfield("--sessions-per-client", "2")
    forged = "playfield_client=" + secrets.token_urlsafe(16)[:22]
    made = [create(server, "127.0.0.22", forged)[2]["id"] for _ in range(2)]
    made += [create(server, "127.0.0.22")[2]["id"] for _ in range(2)]
    # The forged id and no cookie are one client: two live, not four.
    assert len(live(server)) == 2 and live(server) <= set(made)
    # A cookie issued to another address is not this address's family either.
    elsewhere = family(server, "127.0.0.23")
    create(server, "127.0.0.22", elsewhere)
    assert len(live(server)) == 2
    # Malformed cookies are no family, not an error.
    for cookie in ["playfield_client=", "playfield_client=%00", "playfield_client=" + "x" * 500]:
        assert create(server, "127.0.0.22", cookie)[0] == 201
    assert len(live(server)) == 2


def test_minting_families_never_gets_an_address_more_than_its_cap(start_playfield):
    server = start_playfield("--sessions-per-client", "2", "--families-per-address", "3")
    attacker, neighbour = "127.0.0.24", "127.0.0.25"
    theirs = [create(server, neighbour)[2]["id"] for _ in range(2)]
    cookies = [family(server, attacker) for _ in range(20)]
    for cookie in cookies:
        for _ in range(2):
            status, _, body = create(server, attacker, cookie)
            assert status == 201, body
    # 40 creates with 20 cookies: the attacker holds its address's cap (3 families x 2) live,
    # the rest parked; the neighbour's sessions are untouched.
    kept = live(server)
    assert set(theirs) <= kept
    assert len(kept - set(theirs)) == 6

    async def watch_all_then_create():
        sockets = [await connect(f"{server.ws_url}/ws/sessions/{id}", close_timeout=0.1)
                   for id in kept - set(theirs)]
        try:
            # In use once joined: the join is taken on the game loop's tick; its `hello` follows.
            for socket in sockets:
                await receive_until_async(socket, lambda m: m["type"] == "hello", 10, "the spectator's hello")
            fresh = family(server, attacker)
            return await asyncio.to_thread(create, server, attacker, fresh)
        finally:
            for socket in sockets:
                await socket.close()

    # With all six in use, a brand-new family gets 429 for the address, not a fresh quota.
    status, _, body = asyncio.run(watch_all_then_create())
    assert status == 429, body
    assert "address" in body["error"] and "6 live sessions" in body["error"]
    assert create(server, neighbour)[0] == 201


def test_saved_mazes_count_per_family_within_the_address_cap(start_playfield):
    server = start_playfield("--mazes-per-client", "1", "--families-per-address", "2")
    source = "127.0.0.26"
    tab_a, tab_b = family(server, source), family(server, source)
    cells = {"cells": ["#..#", "....", "#..#"]}
    assert call(server, source, "PUT", "/api/mazes/fam-a1", tab_a, cells)[0] == 200
    status, _, body = call(server, source, "PUT", "/api/mazes/fam-a2", tab_a, cells)
    assert status == 429 and "one client" in body["error"]
    assert call(server, source, "PUT", "/api/mazes/fam-b1", tab_b, cells)[0] == 200
    # The address holds 2 (2 families x 1): a script from it is refused for the address.
    status, _, body = call(server, source, "PUT", "/api/mazes/fam-s1", None, cells)
    assert status == 429 and "address" in body["error"]
    assert call(server, "127.0.0.27", "PUT", "/api/mazes/fam-o1", None, cells)[0] == 200
