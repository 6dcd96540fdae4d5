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
$(B)/regress/unit/docker: | $(FAKE_ENGINE) $(B)/libexec/spaced/spaced-docker
