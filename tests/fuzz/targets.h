/* targets.h: what each fuzz driver feeds its input to. The same functions replay the
 * crashes fuzzing found (tests/fuzz/regressions) in make test. */
#ifndef NCF_FUZZ_TARGETS_H
#define NCF_FUZZ_TARGETS_H
#include <stddef.h>
#include <stdint.h>

int fuzz_design_yaml(const uint8_t *data, size_t size);
int fuzz_design_json(const uint8_t *data, size_t size);
int fuzz_catalog(const uint8_t *data, size_t size);
int fuzz_nccltests(const uint8_t *data, size_t size);
int fuzz_set(const uint8_t *data, size_t size);

#endif
