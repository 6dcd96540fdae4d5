#!/bin/sh
# Mutation check of the space CA bundle (spaced.conf(5)): each mutant
# removes one part of it and regress/integration/space-ca.sh must go
# red.  Built in a copy of the tree under a temp dir; the tree itself
# is never modified.  About 40 s a mutant (the move's: 90 s).
# Usage: sh regress/mutants/space-ca.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <"old" => "new"> [suite, default space-ca.sh]
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build "$1" binaries
	sh "$tmp/src/regress/integration/${4:-space-ca.sh}" >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

# The controls: each way of running, on the unmutated tree.
mutant "$MUTANT_CONTROL" GNUmakefile ""
mutant "$MUTANT_CONTROL" GNUmakefile "" move.sh

mutant_expect '=/opt/spaced/ca-certificates\.crt in the space'\''s environment'
mutant "the variables left out of the space" worker-docker/docker_harden.c \
    "	for (i = 0; p->hp_runtime_ca && harden_space_ca_env[i] != NULL; i++) => 	for (i = 0; 0 && harden_space_ca_env[i] != NULL; i++)"
mutant_expect 'the file inside is the bundle, byte for byte'
mutant "the bundle left out of the runtime volume" worker-docker/docker_runtime.c \
    "	if (env->de_ca_fd != -1) {
		if ((ca = file_bytes(env->de_ca_fd, env->de_ca_size)) == NULL) { => 	if (0) {
		if ((ca = file_bytes(env->de_ca_fd, env->de_ca_size)) == NULL) {"
# The first create meets the runtime volume every spaced without a
# bundle shares (its key is the relay's alone) and is refused.
mutant_expect 'another runtime volume|create with the bundle of A: .*runtime_volume_foreign'
# The bundle is read and sized as before, into a digest thrown away (a
# mutant that skipped the read gave a bundle of 0 bytes, and spaced
# stopped at that first).
mutant "the key blind to the bundle" supervisor/spaced/runtime.c \
    "	EVP_MD_CTX		*ctx; => 	EVP_MD_CTX		*ctx, *junk = EVP_MD_CTX_new(); @@ if (EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1 || => if (EVP_DigestInit_ex(junk, EVP_sha256(), NULL) != 1 || EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1 || @@ (EVP_DigestUpdate(ctx, sep, sizeof(sep) - 1) != 1 ||\n\t    (ca_n = hash_fd(ctx, ca_fd, => (EVP_DigestUpdate(junk, sep, sizeof(sep) - 1) != 1 ||\n\t    (ca_n = hash_fd(junk, ca_fd,"
mutant_expect 'its bundle changed behind us: create answers runtime_volume_foreign'
mutant "a filled volume's bundle taken unseen" worker-docker/space_runtime.c \
    "	rt->rt_step = docker_runtime_has_ca() ? RT_CA : RT_CTR_DEL; => 	rt->rt_step = RT_CTR_DEL;"
mutant_expect 'the moved container keeps the space CA bundle'\''s variables'
mutant "a move forgets the space was made with the bundle" \
    worker-docker/space_verify.c \
    "	sp->rt_ca = made_with_ca(o); => 	sp->rt_ca = 0 && made_with_ca(o);" move.sh
mutant_expect 'a bundle others may write: create answers runtime_missing'
mutant "a bundle others may write taken" supervisor/spaced/runtime.c \
    "	    (sb.st_mode & 022) != 0)\n\t\treturn \"others may write it\"; => 	    0)\n\t\treturn \"others may write it\";"

mutants_end
