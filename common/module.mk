# common/: the message layer, logging, sandbox helpers, linked into everything.
COMMON_SRCS := $(wildcard common/*.c)
COMMON_OBJS := $(COMMON_SRCS:%.c=$(B)/%.o)

$(B)/libcommon.a: $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^

# The imsg suite makes malloc fail on demand (regress/unit/imsg/leaks.c)
# to check that an fd is closed on every failure path.
$(B)/regress/unit/imsg: LDFLAGS += -Wl,--wrap=malloc
