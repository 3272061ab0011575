print("playfield: not built yet")
