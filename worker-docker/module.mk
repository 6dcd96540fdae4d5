# worker-docker/: spaced-docker, the Docker place (Engine API client).
DOCKER_SRCS	:= $(sort $(wildcard worker-docker/*.c))
DOCKER_OBJS	:= $(DOCKER_SRCS:%.c=$(B)/%.o)
DOCKER_LIB_OBJS	:= $(filter-out $(B)/worker-docker/main.o,$(DOCKER_OBJS))

$(B)/libexec/spaced/spaced-docker: $(DOCKER_OBJS) $(B)/libcommon.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The binary needs main.c (the lead's); until it lands, build the library
# objects only, so a plain make stays green.
ifneq ($(wildcard worker-docker/main.c),)
BINS		+= $(B)/libexec/spaced/spaced-docker
else
BINS		+= $(DOCKER_LIB_OBJS)
endif
UNIT_LINK_docker := $(DOCKER_LIB_OBJS)

# The hardening builders and checkers are pure: their unit suite links
# them alone (labels.c comes with libcommon.a).
UNIT_LINK_harden := $(B)/worker-docker/docker_harden.o \
	$(B)/worker-docker/docker_verify.o $(B)/worker-docker/docker_verify_res.o

# The tools volume's framing builder, pure: its suite links it alone.
UNIT_LINK_tools := $(B)/worker-docker/docker_tools.o \
	$(B)/worker-docker/docker_harden_tools.o $(B)/worker-docker/docker_harden.o \
	$(B)/worker-docker/docker_verify.o $(B)/worker-docker/docker_verify_res.o

# The filler program is installed next to the workers; its sha256 is
# part of every tools key (common/proto/tools_key.h).
$(B)/libexec/spaced/spaced-filler.js: worker-docker/spaced-filler.js
	@mkdir -p $(dir $@)
	install -m 0644 $< $@
BINS		+= $(B)/libexec/spaced/spaced-filler.js
