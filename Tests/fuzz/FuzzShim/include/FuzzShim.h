#ifndef PLAYFIELD_FUZZ_SHIM_H
#define PLAYFIELD_FUZZ_SHIM_H

#include <stddef.h>
#include <stdint.h>

/// One libFuzzer input: return 0.
typedef int (*playfield_fuzz_callback)(const uint8_t *data, size_t size);

/// Runs libFuzzer's driver with `callback`; -1 when this binary was built without libFuzzer
/// (a plain `swift build`), so the caller can say how to build it (`make fuzz`).
int playfield_fuzz_run_driver(int *argc, char ***argv, playfield_fuzz_callback callback);

#endif
