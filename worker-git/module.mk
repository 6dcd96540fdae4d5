# worker-git/: spaced-git, one user's repository through libgit2.
GIT_SRCS	:= $(sort $(wildcard worker-git/*.c))
GIT_OBJS	:= $(GIT_SRCS:%.c=$(B)/%.o)

$(B)/libexec/spaced/spaced-git: $(GIT_OBJS) $(B)/libcommon.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

BINS		+= $(B)/libexec/spaced/spaced-git
