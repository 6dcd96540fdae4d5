# gatekeeper/spaced-gatekeeper/: spaced-gatekeeper, the program inside a gatekeeper container.
GK_SRCS		:= $(sort $(wildcard gatekeeper/spaced-gatekeeper/*.c))
GK_OBJS		:= $(GK_SRCS:%.c=$(B)/%.o)
GK_LIB_OBJS	:= $(filter-out $(B)/gatekeeper/spaced-gatekeeper/main.o,$(GK_OBJS))

# Only what it uses, and libevent as core + extra (evdns) rather than the
# whole libevent besides libevent_core: each library mapped costs an idle
# gatekeeper resident pages.
GK_LDLIBS	:= $(shell pkg-config --libs libbsd-overlay jansson libseccomp \
		    openssl 2>/dev/null) -levent_openssl -levent_extra -levent_core

$(B)/libexec/spaced/spaced-gatekeeper: $(GK_OBJS) $(B)/libcommon.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -Wl,--as-needed -o $@ $^ $(GK_LDLIBS)

BINS		+= $(B)/libexec/spaced/spaced-gatekeeper
UNIT_LINK_spaced-gatekeeper := $(GK_LIB_OBJS)
