/* units.h: sizes as nccl-tests writes them (8, 128K, 1M, 16G: K, M, G are powers of 1024). */
#ifndef NCF_UNITS_H
#define NCF_UNITS_H
#include <stdbool.h>
#include <stddef.h>

/* Parse a size; false with a message in err for anything else (negative, junk, > 1 TiB). */
bool parse_size(const char *s, double *bytes, char *err, size_t errsz);
/* A GPU count for --gpus: a whole number from 1 to 100000000 (model/num.h's rules). */
bool parse_gpus(const char *s, long *gpus, char *err, size_t errsz);
/* "1G", "128K", "8" when exact, else "%.3g" bytes; into buf. */
const char *format_size(double bytes, char *buf, size_t size);
/* Bytes in decimal units always ("80 MB", "40 MB", "1.5 GB", "512 B"), %.3g: for sizes the
 * model derives (gradient buckets), so that sizes side by side share one unit. */
const char *format_bytes_dec(double bytes, char *buf, size_t size);

#endif
