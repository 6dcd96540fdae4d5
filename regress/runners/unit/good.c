/* The positive control: frees what it takes. */
#include <stdlib.h>

#include <criterion/criterion.h>

Test(runners, frees)
{
	char	*p = malloc(64);

	cr_assert_not_null(p);
	free(p);
}
