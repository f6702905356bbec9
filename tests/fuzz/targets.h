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
int fuzz_prices(const uint8_t *data, size_t size);
int fuzz_fail(const uint8_t *data, size_t size);
int fuzz_set(const uint8_t *data, size_t size);
/* The whole command-line path: load (the first byte picks YAML or JSON), check, the model,
 * report (text and JSON), expect, compare against a measured log, diff against the
 * built-in design, every export (single files in memory, ASTRA-sim and NetBox into a
 * private directory), placement, and the round trip through both formats. */
int fuzz_pipeline(const uint8_t *data, size_t size);
/* The headless designer (tests/fuzz/designer.c, linked with the ui library): the first
 * byte picks the design, the next two the screen, the rest is a --script. */
int fuzz_designer(const uint8_t *data, size_t size);
/* The model's cost on a design built from the bytes (tests/fuzz/model_gen.h): aborts when
 * a cold recompute of a design the check accepts takes longer than the limit
 * ($NCFABRIC_FUZZ_LIMIT_MS, default MODEL_GEN_LIMIT_MS, 16 ms); the time is left in
 * fuzz_model_last_ms (0 for a design the check refuses). */
int fuzz_model(const uint8_t *data, size_t size);
extern double fuzz_model_last_ms;
/* A private directory for what the targets write, removed when the process exits. */
const char *fuzz_scratch_dir(void);

#endif
