#include "FuzzShim.h"

// NB: weak, so a plain build links without libFuzzer; `make fuzz` links
// libclang_rt.fuzzer_no_main with --undefined=LLVMFuzzerRunDriver, which makes it non-null.
extern int LLVMFuzzerRunDriver(int *argc, char ***argv,
                               int (*callback)(const uint8_t *data, size_t size))
    __attribute__((weak));

int playfield_fuzz_run_driver(int *argc, char ***argv, playfield_fuzz_callback callback) {
  if (LLVMFuzzerRunDriver == 0) return -1;
  return LLVMFuzzerRunDriver(argc, argv, callback);
}
