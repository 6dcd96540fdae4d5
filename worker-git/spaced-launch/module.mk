# worker-git/spaced-launch/: spaced-launch, which starts spaced-git as the
# owner of each repository (docs/privsep.md).
LAUNCH_SRCS	:= $(sort $(wildcard worker-git/spaced-launch/*.c))
LAUNCH_OBJS	:= $(LAUNCH_SRCS:%.c=$(B)/%.o)

$(B)/libexec/spaced/spaced-launch: $(LAUNCH_OBJS) $(B)/libcommon.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

BINS		+= $(B)/libexec/spaced/spaced-launch
