/* A planted leak: the test passes, LeakSanitizer reports at exit. */
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

Test(runners, leaks)
{
	char	*p = malloc(64);

	cr_assert_not_null(p);
	memset(p, 0, 64);
	p = NULL;
}
