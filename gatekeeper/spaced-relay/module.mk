# gatekeeper/spaced-relay/: spaced-relay, the command of a space.  It runs inside
# arbitrary space images from the read-only runtime volume, so it is
# linked statically: nothing of the image's libc or libraries is used.
# It calls no NSS function (getaddrinfo, getpwnam) of its own.
#
# Under SANITIZE it is linked dynamically: the ASan runtime cannot be
# linked statically.  The shipped binary is the normal build's.
RELAY_SRCS	:= $(sort $(wildcard gatekeeper/spaced-relay/*.c))
RELAY_OBJS	:= $(RELAY_SRCS:%.c=$(B)/%.o)
RELAY_LIB_OBJS	:= $(filter-out $(B)/gatekeeper/spaced-relay/main.o,$(RELAY_OBJS))
RELAY_STATIC	:= $(if $(SANITIZE),,-static)
RELAY_LDLIBS	:= $(shell pkg-config --static --libs libbsd-overlay \
		    libseccomp 2>/dev/null)

# Nothing here changes credentials, so nothing pulls sandbox_priv.o out
# of libcommon.a, nor getpwnam and glibc's NSS with it: checked.
$(B)/libexec/spaced/spaced-relay: $(RELAY_OBJS) $(B)/libcommon.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $(RELAY_STATIC) -o $@ $^ $(RELAY_LDLIBS)
	@if nm $@ | grep -Ew 'sandbox_drop_privileges|getpwnam|__nss_database_lookup2?' >&2; then \
		echo "$@: links a credential change or NSS" >&2; rm -f $@; exit 1; fi

BINS		+= $(B)/libexec/spaced/spaced-relay
# regress/unit/spaced-relay: the pure helpers and the filter spec, with
# the sandbox tests' fork-and-try helpers (regress/lib/sbt.c).
UNIT_LINK_spaced-relay	:= $(RELAY_LIB_OBJS) $(B)/regress/lib/sbt.o

# The integration suite's client and stand-in gatekeeper in one.
$(B)/regress/tools/relay_check: $(B)/regress/tools/relay_check.o
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^

TEST_TOOLS	+= $(B)/regress/tools/relay_check

# The hosts file every space binds read-only at /etc/hosts: a space has
# no engine network (NetworkDisabled), so the engine writes it none, and
# "gatekeeper" must name the relay's loopback.  spaced refuses a copy
# that differs from the one it was built with (supervisor/spaced/runtime.c).
$(B)/libexec/spaced/space-hosts: gatekeeper/spaced-relay/space-hosts
	@mkdir -p $(dir $@)
	install -m 0644 $< $@
BINS		+= $(B)/libexec/spaced/space-hosts
