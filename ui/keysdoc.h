/* keysdoc.h: the man page's KEYS section, generated from the key table. */
#ifndef NCF_KEYSDOC_H
#define NCF_KEYSDOC_H
#include <stdio.h>

/* Write the roff of the KEYS section, between its BEGIN and END comment lines. */
void keys_roff(FILE *out);

#endif
