# regress/tools/: helpers the tests and benches run, never installed.
FAKE_ENGINE	:= $(B)/regress/tools/fake_engine

$(FAKE_ENGINE): $(B)/regress/tools/fake_engine.o
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# A compromised worker the integration suites run in place of spaced-git.
$(B)/regress/tools/hostile-worker: $(B)/regress/tools/hostile_worker.o $(B)/libcommon.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

TEST_TOOLS	+= $(FAKE_ENGINE) $(B)/regress/tools/hostile-worker

# The docker suite drives the real worker against the stand-in Engine.
# Order-only: built first, never linked in.
$(B)/regress/unit/spaced-docker: | $(FAKE_ENGINE) $(B)/libexec/spaced/spaced-docker

# One space operation of the place in-process, for development.
# (worker-docker/module.mk comes later: its objects by name here.)
PLACE_OP_OBJS	:= $(filter-out $(B)/worker-docker/main.o,\
		   $(patsubst %.c,$(B)/%.o,$(wildcard worker-docker/*.c)))
$(B)/regress/tools/place_op: $(B)/regress/tools/place_op.o $(PLACE_OP_OBJS) $(B)/libcommon.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
TEST_TOOLS	+= $(B)/regress/tools/place_op

# Code in: the repository comparator of its tests (regress/lib/), a
# program for the live suite.
$(B)/regress/tools/repo-compare: $(B)/regress/tools/repo_compare_main.o \
    $(B)/regress/lib/repo_compare.o
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
TEST_TOOLS	+= $(B)/regress/tools/repo-compare

