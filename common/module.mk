# common/: lib/ is the mechanism every process links (imsg, proc, log,
# sandbox, streams); proto/ the protocols and model several programs share.
COMMON_SRCS := $(wildcard common/lib/*.c common/proto/*.c)
COMMON_OBJS := $(COMMON_SRCS:%.c=$(B)/%.o)

$(B)/libcommon.a: $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^

# The imsg tests make malloc fail on demand (regress/unit/common/leaks.c)
# to check that an fd is closed on every failure path.
$(B)/regress/unit/common: LDFLAGS += -Wl,--wrap=malloc
