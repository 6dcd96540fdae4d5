# regress/tools/: programs the integration suites run in place of ours.
$(B)/regress/tools/hostile-worker: $(B)/regress/tools/hostile_worker.o $(B)/libcommon.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

TEST_TOOLS	+= $(B)/regress/tools/hostile-worker
