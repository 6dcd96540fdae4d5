/* One test passes, one skips: the skip is counted with its reason. */
#include <criterion/criterion.h>

Test(runners, passes)
{
	cr_assert(1);
}

Test(runners, skips)
{
	cr_skip_test("planted: the runner must count this");
}
