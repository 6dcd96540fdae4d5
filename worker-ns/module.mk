# worker-ns/: spaced-ns, the native place (namespaces, cgroups, mounts).
NS_SRCS		:= $(sort $(wildcard worker-ns/*.c))
NS_OBJS		:= $(NS_SRCS:%.c=$(B)/%.o)
NS_LIB_OBJS	:= $(filter-out $(B)/worker-ns/main.o,$(NS_OBJS))

$(B)/libexec/spaced/spaced-ns: $(NS_OBJS) $(B)/libcommon.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

BINS		+= $(B)/libexec/spaced/spaced-ns
# Unit-tested: a filled tools tree made root's (ns_own.c), the exec
# helper's receive (ns_helper.c); they link the rest but main.o.
UNIT_LINK_spaced-ns := $(NS_LIB_OBJS)
