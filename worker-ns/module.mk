# worker-ns/: spaced-ns, the native place (namespaces, cgroups, mounts).
NS_SRCS		:= $(sort $(wildcard worker-ns/*.c))
NS_OBJS		:= $(NS_SRCS:%.c=$(B)/%.o)
NS_LIB_OBJS	:= $(filter-out $(B)/worker-ns/main.o,$(NS_OBJS))

$(B)/libexec/spaced/spaced-ns: $(NS_OBJS) $(B)/libcommon.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

BINS		+= $(B)/libexec/spaced/spaced-ns
# A filled tools tree made root's: unit-tested without the rest.
UNIT_LINK_spaced-ns := $(B)/worker-ns/ns_own.o
