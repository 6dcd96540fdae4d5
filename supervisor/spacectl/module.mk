# supervisor/spacectl/: spacectl, the control socket's client.
SPACECTL_SRCS	:= $(sort $(wildcard supervisor/spacectl/*.c))
SPACECTL_OBJS	:= $(SPACECTL_SRCS:%.c=$(B)/%.o)

$(B)/bin/spacectl: $(SPACECTL_OBJS) $(B)/libcommon.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

BINS		+= $(B)/bin/spacectl
# The turn's reading, pure but for its callbacks, and prompt's other
# answers (regress/unit/spacectl).
UNIT_LINK_spacectl := $(B)/supervisor/spacectl/spacectl_turn.o \
		      $(B)/supervisor/spacectl/spacectl_answer.o
