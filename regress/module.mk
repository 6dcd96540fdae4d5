# regress/: conventions that let each module add tests without editing
# a makefile shared with other modules.
#
# - regress/unit/<program>/*.c is one Criterion binary
#   $(B)/regress/unit/<program>, linked with the objects in
#   UNIT_LINK_<program> (set by the program's own module.mk), the shared
#   helpers it names below (regress/lib/*.c) and libcommon.a.
# - regress/integration/*.sh (not lib.sh) run against the normal build.
# - regress/bench/*.sh run by make bench.
# - regress/fuzz/*_fuzz.c are built with clang -fsanitize=fuzzer by
#   regress/fuzz/build.sh; each names what it links in a "fuzz-link:" line.

UNIT_DIRS := $(notdir $(wildcard regress/unit/*))

# Test objects live apart from the binary of the same name, which would
# otherwise be a directory of objects ($(B)/regress/unit/<m>/x.o).
UNIT_OBJ := $(B)/regress/unit-obj
$(UNIT_OBJ)/%.o: regress/unit/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Iregress/lib -MMD -MP -c -o $@ $<

# The shared C helpers (regress/lib/), by the suites that use them.
UNIT_LINK_common	+= $(B)/regress/lib/sbt.o
UNIT_LINK_spaced-docker	+= $(B)/regress/lib/worker_harness.o

define unit_template
$(B)/regress/unit/$(1): $$(patsubst regress/unit/%.c,$(UNIT_OBJ)/%.o,$$(wildcard regress/unit/$(1)/*.c)) $$(UNIT_LINK_$(1)) $(B)/libcommon.a
	@mkdir -p $$(dir $$@)
	$$(CC) $$(filter-out %/san_default.o,$$(LDFLAGS)) -o $$@ $$^ $$(LDLIBS) $$(CRITERION_LIBS) -lpthread
UNIT_TESTS += $(B)/regress/unit/$(1)
endef
$(foreach m,$(UNIT_DIRS),$(eval $(call unit_template,$(m))))

INTEGRATION	+= $(filter-out regress/integration/lib.sh,$(sort $(wildcard regress/integration/*.sh)))
# Against the real engine, after the rest: the place contract and the
# escape attempts (DESIGN.md "Places"), once per place: docker.sh on the
# Docker place, on-native.sh the same suite on the native place (root;
# contract/lib.sh reads behind spaced through the place under test).
INTEGRATION	+= $(filter-out %/lib.sh,$(sort $(wildcard regress/contract/*.sh)))
INTEGRATION	+= $(filter-out %/lib.sh,$(sort $(wildcard regress/escape/*.sh)))
# The Docker place under faults (spec "Rollback"): killed workers, a
# killed and a stalled engine of the suite's own, failed creates.
INTEGRATION	+= $(filter-out %/lib.sh,$(sort $(wildcard regress/faults/*.sh)))
# Code in, in real spaces (spec "Code in").
INTEGRATION	+= $(sort $(wildcard regress/codein/*.sh))
# Code out through spacectl review and apply (issue 24; docs/notes/spaced-git-codeout.md).
INTEGRATION	+= $(filter-out %/lib.sh,$(sort $(wildcard regress/codeout/*.sh)))
# The agent inside: the server's channel with a test agent (packed tools).
INTEGRATION	+= regress/agent/server.sh
# The prune's race with a create: a create's tools kept from a prune.
INTEGRATION	+= regress/agent/prune-race.sh
# The space survives its agent's mistakes: memory hogs, a server that dies.
INTEGRATION	+= regress/agent/survive.sh
# create --code: the code in beside the server's start, and its undo.
INTEGRATION	+= regress/agent/create-code.sh
# A create whose server the kernel kills at each start ends early, named
# (native/deaths.sh, below, is the same suite on the native place).
INTEGRATION	+= regress/agent/deaths.sh
# First contact: the README's commands in fresh Debian 12 roots
# (debootstrap, cached by key under /var/cache/spaced/fresh).
INTEGRATION	+= regress/fresh/debian.sh
# A real agent turn: OpenCode from the registry, a scripted model behind
# a grant (turn-host.sh is the same turn on the host, for development).
INTEGRATION	+= regress/agent/turn.sh
# A person's session: exec -t under tmux and create --code
# (session/tty.sh, ~1 min); attach under tmux, prompt and sessions
# against the scripted model (session/agent.sh, ~6 min: a tools fill).
INTEGRATION	+= regress/session/tty.sh regress/session/agent.sh
# Again as san:SUITE, against the programs built with ASan+UBSan
# (build-san; a report ends its process, and integration/lib.sh fails a
# suite whose spaced logged one): the place contract on both places, the
# terminal's streams, code out's quarantine on hostile packs and on the
# shapes a new user brings (the only live run of spaced-git's reader of a
# split index), code in with its clients killed mid-way (under ASan's
# pace it met the exec's stdin after its stream's end, which the plain
# build did not), and the gatekeeper's two parsers of a space's traffic.
INTEGRATION_SAN	+= regress/contract/on-native.sh regress/contract/docker.sh \
		   regress/native/tty.sh regress/codeout/codeout.sh \
		   regress/codeout/shapes.sh regress/codein/codein.sh \
		   regress/integration/gatekeeper-corridor.sh \
		   regress/integration/gatekeeper-window.sh
BENCHES		+= $(sort $(wildcard regress/bench/*.sh))
FUZZ_TARGETS	+= $(sort $(wildcard regress/fuzz/*_fuzz.c))
# The native place's own suites (issue 25): a missing limit accepted or
# refused, the gatekeeper's log capped, make run without Docker.
INTEGRATION	+= $(filter-out %/lib.sh,$(sort $(wildcard regress/native/*.sh)))
