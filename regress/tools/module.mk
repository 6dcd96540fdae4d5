# regress/tools/: helpers the tests and benches run, never installed.
FAKE_ENGINE	:= $(B)/regress/tools/fake_engine

$(FAKE_ENGINE): $(B)/regress/tools/fake_engine.o
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The docker suite drives the real worker against the stand-in Engine.
# Order-only: built first, never linked in.
$(B)/regress/unit/docker: | $(FAKE_ENGINE) $(B)/libexec/spaced/spaced-docker
