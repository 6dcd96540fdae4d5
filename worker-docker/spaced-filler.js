// Copyright (c) 2026 The spaced developers
//
// Permission to use, copy, modify, and distribute this software for any
// purpose with or without fee is hereby granted, provided that the above
// copyright notice and this permission notice appear in all copies.
//
// THE SOFTWARE IS PROVIDED "AS IS" AND THE AUTHOR DISCLAIMS ALL WARRANTIES
// WITH REGARD TO THIS SOFTWARE INCLUDING ALL IMPLIED WARRANTIES OF
// MERCHANTABILITY AND FITNESS. IN NO EVENT SHALL THE AUTHOR BE LIABLE FOR
// ANY SPECIAL, DIRECT, INDIRECT, OR CONSEQUENTIAL DAMAGES OR ANY DAMAGES
// WHATSOEVER RESULTING FROM LOSS OF USE, DATA OR PROFITS, WHETHER IN AN
// ACTION OF CONTRACT, NEGLIGENCE OR OTHER TORTIOUS ACTION, ARISING OUT OF
// OR IN CONNECTION WITH THE USE OR PERFORMANCE OF THIS SOFTWARE.

// spaced-filler: fills a tools volume, in the one-shot container that
// has a way out (spec "The filler").  Run as
//	node spaced-filler.js <tools dir> <staging dir>
// Its stdin: one JSON header line, then the bytes of each file in the
// header's order (worker-docker/docker_tools.c builds it).  It installs
// with --ignore-scripts plus the profile's one install script, checks the
// binaries, flushes, and writes the marker last.  Its sha256 is part of
// the tools key, so a change here is a new volume.  Node 18, no modules.
'use strict';

const fs = require('fs');
const path = require('path');
const cp = require('child_process');

// The same caps as worker-docker/docker_tools.h.
const HEADER_MAX = 64 * 1024;
const FILES_MAX = 32;
const FILE_MAX = 512 * 1024 * 1024;
const TOTAL_MAX = 900 * 1024 * 1024;	// the staging tmpfs is 1 GiB
const PACKAGE_JSON_MAX = 64 * 1024;
const CA_MAX = 1024 * 1024;
const MARKER = '.spaced-filled';
const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const KEY_RE = /^[0-9a-f]{16}$/;
const NPM_RE = /^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;
const WORD_RE = /^[A-Za-z0-9._\/:=@%+,-]{1,127}$/;
const SCRIPT_RE = /^[A-Za-z0-9._\/-]{1,127}$/;

// Exit codes name the step that failed; the host maps them to errors.
const EXIT = { framing: 2, npm: 3, postinstall: 4, binaries: 5, sync: 6,
    marker: 7 };

let created = [];	// staging files to remove if the framing fails

function fail(step, why) {
	for (const f of created) {
		try { fs.unlinkSync(f); } catch (e) { /* best effort */ }
	}
	process.stderr.write('spaced-filler: ' + step + ': ' + why + '\n');
	process.exit(EXIT[step]);
}

// Synchronous stdin: no event loop between the checks and the writes.
const input = { buf: Buffer.alloc(0), eof: false };
function readMore() {
	const chunk = Buffer.alloc(64 * 1024);
	let n;
	for (;;) {
		try {
			n = fs.readSync(0, chunk, 0, chunk.length, null);
			break;
		} catch (e) {
			if (e.code === 'EAGAIN') {
				Atomics.wait(new Int32Array(
				    new SharedArrayBuffer(4)), 0, 0, 10);
				continue;
			}
			if (e.code === 'EOF')
				n = 0;
			else
				fail('framing', 'stdin: ' + e.code);
			break;
		}
	}
	if (n === 0)
		input.eof = true;
	else
		input.buf = Buffer.concat([input.buf, chunk.subarray(0, n)]);
}

function readHeader() {
	for (;;) {
		const nl = input.buf.indexOf(10);
		if (nl !== -1) {
			const line = input.buf.subarray(0, nl);
			input.buf = input.buf.subarray(nl + 1);
			return line;
		}
		if (input.buf.length > HEADER_MAX)
			fail('framing', 'header longer than ' + HEADER_MAX);
		if (input.eof)
			fail('framing', 'stdin ended inside the header');
		readMore();
	}
}

function isObject(v) {
	return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function onlyKeys(o, keys, what) {
	for (const k of Object.keys(o))
		if (!keys.includes(k))
			fail('framing', what + ': unknown field ' +
			    JSON.stringify(k).slice(0, 64));
}

function scriptOk(s) {
	return typeof s === 'string' && SCRIPT_RE.test(s) &&
	    s.split('/').every((c) => c !== '' && c !== '.' && c !== '..');
}

// The whole header is checked before anything is written.
function parseHeader(line) {
	if (line.length > HEADER_MAX)
		fail('framing', 'header longer than ' + HEADER_MAX);
	let h;
	try {
		h = JSON.parse(line.toString('utf8'));
	} catch (e) {
		fail('framing', 'header is not JSON');
	}
	if (!isObject(h))
		fail('framing', 'header is not an object');
	onlyKeys(h, ['key', 'files', 'postinstall', 'bins', 'cafile'],
	    'header');
	if (typeof h.key !== 'string' || !KEY_RE.test(h.key))
		fail('framing', 'key is not 16 lowercase hex');
	if (!Array.isArray(h.files) || h.files.length < 1 ||
	    h.files.length > FILES_MAX)
		fail('framing', 'files: 1 to ' + FILES_MAX + ' entries');
	const seen = new Set();
	let total = 0;
	for (const f of h.files) {
		if (!isObject(f))
			fail('framing', 'a file is not an object');
		onlyKeys(f, ['name', 'size'], 'file');
		if (typeof f.name !== 'string' || !NAME_RE.test(f.name))
			fail('framing', 'file name is not a plain name: ' +
			    JSON.stringify(String(f.name)).slice(0, 140));
		if (seen.has(f.name))
			fail('framing', 'file named twice: ' + f.name);
		seen.add(f.name);
		if (!Number.isSafeInteger(f.size) || f.size < 0 ||
		    f.size > FILE_MAX)
			fail('framing', f.name + ': size out of range');
		if (f.name === 'package.json' && f.size > PACKAGE_JSON_MAX)
			fail('framing', 'package.json too large');
		total += f.size;
	}
	if (total > TOTAL_MAX)
		fail('framing', 'files larger than ' + TOTAL_MAX + ' in all');
	if (!seen.has('package.json'))
		fail('framing', 'no package.json');
	if (h.postinstall !== null) {
		const p = h.postinstall;
		if (!isObject(p))
			fail('framing', 'postinstall is not an object');
		onlyKeys(p, ['package', 'script'], 'postinstall');
		if (typeof p.package !== 'string' || !NPM_RE.test(p.package) ||
		    p.package.length > 214 || !scriptOk(p.script))
			fail('framing', 'bad postinstall');
	}
	if (!Array.isArray(h.bins) || h.bins.length < 1 || h.bins.length > 4)
		fail('framing', 'bins: 1 to 4 entries');
	for (const b of h.bins) {
		if (!isObject(b))
			fail('framing', 'a binary is not an object');
		onlyKeys(b, ['name', 'args'], 'binary');
		if (typeof b.name !== 'string' || !NAME_RE.test(b.name) ||
		    !Array.isArray(b.args) || b.args.length > 8 ||
		    !b.args.every((a) => typeof a === 'string' &&
		    WORD_RE.test(a)))
			fail('framing', 'bad binary');
	}
	if (h.cafile !== null) {
		if (typeof h.cafile !== 'string' || !seen.has(h.cafile) ||
		    h.cafile === 'package.json')
			fail('framing', 'cafile is not one of the files');
		if (h.files.find((f) => f.name === h.cafile).size > CA_MAX)
			fail('framing', 'cafile too large');
	}
	return h;
}

function readFileTo(size, fd, keep) {
	const parts = [];
	let left = size;
	while (left > 0) {
		if (input.buf.length === 0) {
			if (input.eof)
				fail('framing', 'stdin ended inside a file');
			readMore();
			continue;
		}
		const n = Math.min(left, input.buf.length);
		const piece = input.buf.subarray(0, n);
		if (keep)
			parts.push(Buffer.from(piece));
		else {
			let off = 0;
			while (off < n)
				off += fs.writeSync(fd, piece, off, n - off);
		}
		input.buf = input.buf.subarray(n);
		left -= n;
	}
	return keep ? Buffer.concat(parts) : null;
}

function inside(dir, p) {
	const rel = path.relative(dir, p);
	return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

// The codes of a certificate npm could not verify: a network that
// inspects TLS, whose CA the fill was not given.
const TLS_RE = new RegExp('\\b(SELF_SIGNED_CERT_IN_CHAIN|' +
    'DEPTH_ZERO_SELF_SIGNED_CERT|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|' +
    'UNABLE_TO_VERIFY_LEAF_SIGNATURE|CERT_UNTRUSTED|CERT_HAS_EXPIRED|' +
    'ERR_TLS_CERT_ALTNAME_INVALID)\\b');
const ERR_KEEP = 64 * 1024;	// of a step's stderr, read for TLS_RE

function run(step, file, args, opts) {
	const r = cp.spawnSync(file, args, Object.assign({
		stdio: ['ignore', 2, 'pipe'], env: opts.env || process.env,
		maxBuffer: 256 * 1024 * 1024
	}, opts));
	let tls = null;
	if (r.stderr && r.stderr.length > 0) {
		process.stderr.write(r.stderr);
		tls = TLS_RE.exec(r.stderr.subarray(-ERR_KEEP).toString());
	}
	if (r.error)
		fail(step, file + ': ' + (r.error.code || r.error.message));
	// The last line, which the host shows: what to configure.
	if (r.status !== 0 && tls !== null)
		fail(step, 'TLS ' + tls[1] + ': the network inspects TLS; ' +
		    'name its CA in spaced.conf(5): tools ca bundle "FILE"');
	if (r.status !== 0)
		fail(step, file + ' exited with ' + (r.status !== null ?
		    r.status : 'signal ' + r.signal));
}

function main() {
	if (process.argv.length !== 4)
		fail('framing', 'usage: spaced-filler <tools dir> <staging dir>');
	const tools = path.resolve(process.argv[2]);
	const staging = path.resolve(process.argv[3]);
	const h = parseHeader(readHeader());

	let st;
	try {
		st = fs.statSync(tools);
	} catch (e) {
		fail('framing', 'tools dir: ' + e.code);
	}
	if (!st.isDirectory())
		fail('framing', 'tools dir is not a directory');
	// A fresh volume: nothing of an earlier fill to vouch for.
	for (const n of [MARKER, MARKER + '.tmp', 'package.json'])
		if (fs.existsSync(path.join(tools, n)))
			fail('framing', 'tools dir is not empty: ' + n);
	try {
		fs.mkdirSync(staging, { recursive: true, mode: 0o700 });
	} catch (e) {
		fail('framing', 'staging dir: ' + e.code);
	}

	let pkg = null;
	for (const f of h.files) {
		if (f.name === 'package.json') {
			pkg = readFileTo(f.size, -1, true);
			continue;
		}
		const p = path.join(staging, f.name);
		let fd;
		try {
			fd = fs.openSync(p, 'wx', 0o644);
		} catch (e) {
			fail('framing', f.name + ': ' + e.code);
		}
		created.push(p);
		readFileTo(f.size, fd, false);
		fs.closeSync(fd);
	}
	// Exactly the bytes the header announced, nothing after them.
	if (input.buf.length === 0 && !input.eof)
		readMore();
	if (input.buf.length !== 0 || !input.eof)
		fail('framing', 'bytes after the last file');
	try {
		JSON.parse(pkg.toString('utf8'));
	} catch (e) {
		fail('framing', 'package.json is not JSON');
	}
	fs.writeFileSync(path.join(tools, 'package.json'), pkg,
	    { flag: 'wx', mode: 0o644 });
	created = [];

	const env = Object.assign({}, process.env);
	const npmArgs = ['install', '--ignore-scripts', '--no-audit',
	    '--no-fund', '--cache', path.join(staging, 'npm-cache')];
	if (h.cafile !== null) {
		const ca = path.join(staging, h.cafile);
		npmArgs.push('--cafile', ca);
		// For an install script that calls npm or fetches itself.
		env.npm_config_cafile = ca;
		env.NODE_EXTRA_CA_CERTS = ca;
	}
	// npm by its bare name: the image's PATH, not the volume's.
	run('npm', 'npm', npmArgs, { cwd: tools, env: env,
	    timeout: 25 * 60 * 1000 });

	const modules = path.join(tools, 'node_modules');
	if (h.postinstall !== null) {
		const dir = path.join(modules, h.postinstall.package);
		const script = path.join(dir, h.postinstall.script);
		let real;
		try {
			real = fs.realpathSync(script);
			if (!inside(fs.realpathSync(modules), real) ||
			    !fs.statSync(real).isFile())
				throw new Error('not a file in node_modules');
		} catch (e) {
			fail('postinstall', h.postinstall.package + '/' +
			    h.postinstall.script + ': ' + (e.code || e.message));
		}
		run('postinstall', process.execPath, [h.postinstall.script],
		    { cwd: dir, env: env, timeout: 10 * 60 * 1000 });
	}

	const realTools = fs.realpathSync(tools);
	for (const b of h.bins) {
		const p = path.join(modules, '.bin', b.name);
		try {
			const real = fs.realpathSync(p);
			if (!inside(realTools, real) ||
			    !fs.statSync(real).isFile())
				throw new Error('not a file in the volume');
			fs.accessSync(real, fs.constants.X_OK);
		} catch (e) {
			fail('binaries', b.name + ': ' + (e.code || e.message));
		}
		if (b.args.length > 0)
			run('binaries', p, b.args, { cwd: tools, env: env,
			    timeout: 60 * 1000 });
	}

	// npm flushes nothing: the marker must not reach the disk first.
	run('sync', '/bin/sync', [], { timeout: 5 * 60 * 1000 });

	const tmp = path.join(tools, MARKER + '.tmp');
	try {
		const fd = fs.openSync(tmp, 'wx', 0o444);
		fs.writeSync(fd, h.key);
		fs.fsyncSync(fd);
		fs.closeSync(fd);
		const dfd = fs.openSync(tools, 'r');
		fs.fsyncSync(dfd);
		fs.renameSync(tmp, path.join(tools, MARKER));
		fs.fsyncSync(dfd);
		fs.closeSync(dfd);
	} catch (e) {
		try { fs.unlinkSync(tmp); } catch (e2) { /* best effort */ }
		fail('marker', e.code || e.message);
	}
	process.stdout.write('spaced-filler: filled ' + h.key + '\n');
}

main();
