# supervisor/: spaced and spacectl.
SPACED_SRCS	:= supervisor/spaced.c supervisor/workers.c supervisor/control.c \
		   supervisor/config.c supervisor/audit.c supervisor/audit_parse.c \
		   supervisor/kmsg.c supervisor/sandbox.c supervisor/request.c \
		   supervisor/streams.c supervisor/ops.c supervisor/privdrop.c \
		   supervisor/runtime.c supervisor/space_parse.c supervisor/exec.c \
		   supervisor/gkctl.c supervisor/journal.c supervisor/gitinst.c \
		   supervisor/ops_git.c supervisor/codein.c \
		   supervisor/git_parse.c supervisor/config_agent.c \
		   supervisor/server.c \
		   supervisor/tools.c
SPACED_OBJS	:= $(SPACED_SRCS:%.c=$(B)/%.o)
SPACECTL_OBJS	:= $(B)/supervisor/spacectl.o $(B)/supervisor/spacectl_exec.o \
		   $(B)/supervisor/spacectl_gk.o $(B)/supervisor/spacectl_journal.o \
		   $(B)/supervisor/spacectl_call.o $(B)/supervisor/spacectl_git.o \
		   $(B)/supervisor/spacectl_server.o $(B)/supervisor/spacectl_tools.o \
		   $(B)/supervisor/space_parse.o

$(B)/sbin/spaced: $(SPACED_OBJS) $(B)/libcommon.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(B)/bin/spacectl: $(SPACECTL_OBJS) $(B)/libcommon.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

BINS		+= $(B)/sbin/spaced $(B)/bin/spacectl
# Pure parts, for unit tests.
UNIT_LINK_supervisor := $(B)/supervisor/config.o $(B)/supervisor/config_agent.o $(B)/supervisor/audit_parse.o \
		   $(B)/supervisor/kmsg.o $(B)/supervisor/space_parse.o
UNIT_LINK_workers := $(B)/supervisor/sandbox.o $(B)/worker-docker/sandbox.o \
		   $(B)/worker-git/sandbox.o $(B)/gatekeeper/collector/sandbox.o
