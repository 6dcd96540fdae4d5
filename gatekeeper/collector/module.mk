# gatekeeper/collector/: spaced-journal, the journal store.
JOURNAL_SRCS	:= $(sort $(wildcard gatekeeper/collector/*.c))
JOURNAL_OBJS	:= $(JOURNAL_SRCS:%.c=$(B)/%.o)

$(B)/libexec/spaced/spaced-journal: $(JOURNAL_OBJS) $(B)/libcommon.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

BINS		+= $(B)/libexec/spaced/spaced-journal
# Pure parts, for unit tests.
UNIT_LINK_journal := $(B)/gatekeeper/collector/journal_parse.o
UNIT_LINK_server := $(B)/gatekeeper/collector/server_parse.o
