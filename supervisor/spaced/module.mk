# supervisor/spaced/: spaced, the supervisor.
SPACED_SRCS	:= $(sort $(wildcard supervisor/spaced/*.c))
SPACED_OBJS	:= $(SPACED_SRCS:%.c=$(B)/%.o)

$(B)/sbin/spaced: $(SPACED_OBJS) $(B)/libcommon.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

BINS		+= $(B)/sbin/spaced
# Pure parts, for unit tests.
UNIT_LINK_spaced := $(B)/supervisor/spaced/config.o \
		   $(B)/supervisor/spaced/config_agent.o \
		   $(B)/supervisor/spaced/audit_parse.o $(B)/supervisor/spaced/kmsg.o \
		   $(B)/supervisor/spaced/codeout_kept.o \
		   $(B)/supervisor/spaced/gitinst_fair.o \
		   $(B)/supervisor/spaced/gitdeath.o \
		   $(B)/supervisor/spaced/sandbox.o $(B)/worker-docker/sandbox.o \
		   $(B)/worker-git/spaced-git/sandbox.o $(B)/gatekeeper/spaced-journal/sandbox.o
