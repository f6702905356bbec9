/* driver.c: one libFuzzer entry point per target, chosen at compile time (-DTARGET=...). */
#include "tests/fuzz/targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return TARGET(data, size);
}
