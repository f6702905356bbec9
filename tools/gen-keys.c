/* gen-keys: print the KEYS section of ncfabric(1) (make docs). */
#include "ui/keysdoc.h"

int main(void)
{
	keys_roff(stdout);
	return 0;
}
