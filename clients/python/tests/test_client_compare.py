"""`client.compare(...)`: a group steps N ticks, reads every pane's frames and the tick where
the panes part; bad input is an `HTTPError` naming the field."""
import pytest

from playfield_client import Client, Compare, HTTPError, ServerError

BALLS = {"balls": 6, "width": 300, "height": 200, "radiusMin": 10, "radiusMax": 20,
         "speedMin": 200, "speedMax": 400}


def test_a_sweep_reads_where_each_run_parts_from_the_elastic_one(client):
    parted = {}
    for restitution in (1.0, 0.9, 0.5):
        with client.compare("bouncing-balls", seed=42, config=BALLS,
                            variants=[{}, {"restitution": restitution}], ticks=600) as group:
            assert isinstance(group, Compare) and len(group.panes) == 2
            assert group.panes[1]["restitution"] == restitution
            parted[restitution] = group.run_until_diverged()
            assert group.tick <= 600
    assert parted[1.0] is None, "identical panes never differ"
    assert parted[0.9] is not None and parted[0.5] is not None
    # The same seed and walls: the first bounce is where any lossy run parts.
    assert parted[0.9] == parted[0.5] > 0


def test_steps_and_seeks_read_the_same_frames_again(client):
    with client.compare("bouncing-balls", seed=3, config=BALLS,
                        variants=[{}, {"restitution": 0.5}], ticks=300) as group:
        frames = group.step(120)
        assert group.tick == 120 and len(frames) == 2 and len(frames[0]["positions"]) == 12
        assert group.step(500) and group.tick == 300, "to the end at most"
        assert group.seek(120) == frames


def test_bad_input_names_the_field(client):
    with pytest.raises(HTTPError) as caught:
        client.compare("bouncing-balls", variants=[{}])
    assert caught.value.status == 400 and caught.value.field == "variants"
    with pytest.raises(HTTPError) as caught:
        client.compare("maze", variants=[{}, {"wobble": 1}])
    assert caught.value.field == "variants[1].wobble"


def test_offsets_readouts_and_a_loop(start_server):
    client = Client(start_server(args=("--compares-per-client", "8")).url)
    with client.compare("bouncing-balls", seed=3, config=BALLS, ticks=300,
                        variants=[{}, {"offset": 30}], readouts=["energy", "ball0X"]) as group:
        assert group.offsets == [0, 30] and group.recordings == [None, None]
        assert group.readout_names == ["energy", "ball0X"]
        frames = group.step(10)
        assert group.ticks == [10, 40]
        assert group.readout("energy") == [frames[0]["energy"], frames[1]["energy"]]
        assert group.readout("ball0X") == [frames[0]["positions"][0], frames[1]["positions"][0]]
        group.loop(20, 40)
        assert group.loop_marks == (20, 40)
        group.loop()
        assert group.loop_marks is None
        with pytest.raises(ServerError) as caught:
            group.loop(40, 20)
        assert caught.value.field == "to"
    with pytest.raises(HTTPError) as caught:
        client.compare("bouncing-balls", variants=[{}, {"offset": 400}], ticks=300)
    assert caught.value.field == "variants[1].offset"
    assert "pane 2 (variants[1])" in str(caught.value)


def test_a_live_offset_shifts_a_pane_and_finds_the_parting_again(start_server):
    client = Client(start_server(args=("--compares-per-client", "8")).url)
    with client.compare("bouncing-balls", seed=3, config=BALLS, ticks=300,
                        variants=[{}, {}]) as group:
        group.step(20)
        assert group.run_until_diverged(40) is None
        frames = group.set_offset(1, 6)
        assert group.offsets == [0, 6] and group.ticks == [40, 46] and group.tick == 40
        assert group.diverged == 0, "a run six ticks ahead differs at once"
        ahead = frames[1]
        assert group.step(6)[0] == ahead, "pane 2 showed pane 1's tick 46"
        with pytest.raises(ServerError) as caught:
            group.set_offset(2, 1)
        assert caught.value.field == "pane"


def test_the_async_client_compares_too(start_server):
    import asyncio

    from playfield_client import AsyncClient, AsyncCompare

    server = start_server(args=("--compares-per-client", "8"))

    async def sweep() -> dict[float, int | None]:
        client = AsyncClient(server.url)
        parted: dict[float, int | None] = {}
        for restitution in (1.0, 0.5):
            async with await client.compare("bouncing-balls", seed=42, config=BALLS, ticks=600,
                                            variants=[{}, {"restitution": restitution}]) as group:
                assert isinstance(group, AsyncCompare) and group.tick == 0
                parted[restitution] = await group.run_until_diverged()
                frames = await group.seek(10)
                assert group.tick == 10 and len(frames) == 2
        return parted

    parted = asyncio.run(sweep())
    sync = Client(server.url)
    with sync.compare("bouncing-balls", seed=42, config=BALLS, ticks=600,
                      variants=[{}, {"restitution": 0.5}]) as group:
        expected = group.run_until_diverged()
    assert parted == {1.0: None, 0.5: expected} and expected is not None


def test_the_ambient_pane_plays_on_its_own(start_server):
    client = Client(start_server(args=("--compares-per-client", "8")).url)
    with client.compare("bouncing-balls", seed=3, config=BALLS, ticks=20, variants=[{}, {}],
                        ambient={"balls": 1}) as group:
        assert group.ambient is None, "paused until asked for"
        first = group.play_ambient(ticks=3)
        assert first is not None and first["tick"] >= 3 and len(first["frame"]["positions"]) == 2
        assert group.tick == 0, "the group itself stands still"
        group.play_ambient(False)
