# gatekeeper/: spaced-gatekeeper, the program inside a gatekeeper container.
GK_SRCS		:= $(sort $(wildcard gatekeeper/*.c))
GK_OBJS		:= $(GK_SRCS:%.c=$(B)/%.o)
GK_LIB_OBJS	:= $(filter-out $(B)/gatekeeper/main.o,$(GK_OBJS))

$(B)/libexec/spaced/spaced-gatekeeper: $(GK_OBJS) $(B)/libcommon.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

BINS		+= $(B)/libexec/spaced/spaced-gatekeeper
UNIT_LINK_gatekeeper := $(GK_LIB_OBJS)
# The request head parser has a unit suite of its own (regress/unit/gk_http).
UNIT_LINK_gk_http := $(B)/gatekeeper/gk_http.o
