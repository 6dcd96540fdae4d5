# gatekeeper/spaced-journal/: spaced-journal, the journal store.
JOURNAL_SRCS	:= $(sort $(wildcard gatekeeper/spaced-journal/*.c))
JOURNAL_OBJS	:= $(JOURNAL_SRCS:%.c=$(B)/%.o)

$(B)/libexec/spaced/spaced-journal: $(JOURNAL_OBJS) $(B)/libcommon.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

BINS		+= $(B)/libexec/spaced/spaced-journal
# Pure parts, for unit tests.
UNIT_LINK_spaced-journal := $(B)/gatekeeper/spaced-journal/journal_parse.o \
		   $(B)/gatekeeper/spaced-journal/chain.o \
		   $(B)/gatekeeper/spaced-journal/store.o \
		   $(B)/gatekeeper/spaced-journal/tip_parse.o \
		   $(B)/gatekeeper/spaced-journal/verify.o \
		   $(B)/gatekeeper/spaced-journal/server_parse.o \
		   $(B)/gatekeeper/spaced-journal/restart_parse.o \
		   $(B)/gatekeeper/spaced-journal/restarts.o
