# worker-git/spaced-git/: spaced-git, one user's repository through libgit2.
GIT_SRCS	:= $(sort $(wildcard worker-git/spaced-git/*.c))
GIT_OBJS	:= $(GIT_SRCS:%.c=$(B)/%.o)

$(B)/libexec/spaced/spaced-git: $(GIT_OBJS) $(B)/libcommon.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

BINS		+= $(B)/libexec/spaced/spaced-git

# regress/unit/spaced-git drives the request handlers themselves (no main.c, no
# filter) on copies of the bait repository; the comparator comes along.
UNIT_LINK_spaced-git	:= $(filter-out $(B)/worker-git/spaced-git/main.o $(B)/worker-git/spaced-git/sandbox.o,\
		   $(GIT_OBJS)) $(B)/regress/lib/repo_compare.o
$(B)/regress/unit-obj/spaced-git/%.o: CFLAGS += -Iworker-git/spaced-git
