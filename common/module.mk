# common/: the message layer, logging, sandbox helpers, linked into everything.
COMMON_SRCS := $(wildcard common/*.c)
COMMON_OBJS := $(COMMON_SRCS:%.c=$(B)/%.o)

$(B)/libcommon.a: $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^
