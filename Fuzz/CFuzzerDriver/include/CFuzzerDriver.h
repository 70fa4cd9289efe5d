#ifndef REMODEL_C_FUZZER_DRIVER_H
#define REMODEL_C_FUZZER_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver, for a program that keeps its own `main`. Linked only in builds with
/// `-sanitize=fuzzer`; the Swift code calls it only when built with `-DREMODEL_LIBFUZZER`.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
