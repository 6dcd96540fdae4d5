#!/usr/bin/env node
// The server of a test agent profile: listens on 127.0.0.1:<port> and
// answers each request as $HOME/.hostile-mode says at that moment (no
// file: "ok").  Every answer is one the host must take apart safely.
'use strict';
const net = require('net');
const fs = require('fs');
const { spawn } = require('child_process');
const port = Number(process.argv[2]);
const pw = process.env.HOSTILE_PASSWORD || '';
const modeFile = (process.env.HOME || '/tmp') + '/.hostile-mode';
// One line a request, for a test that must know the host asked.
const askedFile = (process.env.HOME || '/tmp') + '/.hostile-asked';

function mode() {
  try { return fs.readFileSync(modeFile, 'utf8').trim(); } catch (e) {
    return process.env.HOSTILE_DEFAULT_MODE || 'ok';
  }
}

// Ballast, so that the server is larger than each of the agent's
// commands (the oom killer's natural choice would be the server).
// HOSTILE_BALLAST_ONCE=1: at its first start alone (a mark in $HOME,
// made before), so that a space too small kills it once.  A number in
// $HOME/.hostile-ballast-mb is the ballast of every start from then on
// (a space that was well, killed at each start after).
function ballastMB() {
  const mark = (process.env.HOME || '/tmp') + '/.hostile-ballast';
  try {
    return Number(fs.readFileSync(mark + '-mb', 'utf8').trim());
  } catch (e) {}
  if (!process.env.HOSTILE_BALLAST_ONCE) return Number(process.env.HOSTILE_BALLAST_MB || 0);
  try { fs.writeFileSync(mark, '', { flag: 'wx' }); } catch (e) { return 0; }
  return Number(process.env.HOSTILE_BALLAST_MB || 0);
}
const ballast = Buffer.alloc(ballastMB() * 1048576, 1);

function http(status, headers, body) {
  let h = 'HTTP/1.1 ' + status + ' X\r\n';
  for (const l of headers) h += l + '\r\n';
  return h + 'Content-Length: ' + Buffer.byteLength(body) + '\r\nConnection: close\r\n\r\n' + body;
}

const server = net.createServer((c) => {
  let req = '';
  c.on('data', (d) => {
    req += d;
    if (req.indexOf('\r\n\r\n') < 0) return;
    try { fs.appendFileSync(askedFile, req.split('\r\n')[0] + '\n'); } catch (e) {}
    // The password travels as basic auth; it must be the token's.
    const m = /authorization: basic ([A-Za-z0-9+/=]+)/i.exec(req);
    const got = m ? Buffer.from(m[1], 'base64').toString().split(':').slice(1).join(':') : '';
    const md = mode();
    if (md === 'hang') return;
    let out;
    const path = req.split(' ')[1] || '';
    if (got !== pw) out = http(401, [], 'no');
    // A command of the agent's, started as OpenCode starts one: through
    // $SHELL -c, detached, its output ignored.
    else if (path.startsWith('/spawn/')) {
      const cmd = Buffer.from(path.slice(7), 'base64url').toString();
      spawn(process.env.SHELL || '/bin/sh', ['-c', cmd], { detached: true, stdio: 'ignore' }).unref();
      out = http(200, [], JSON.stringify({ spawned: true, pid: process.pid, ballast: ballast.length }));
    }
    else if (path === '/pid') out = http(200, [], JSON.stringify({ pid: process.pid }));
    else if (md === 'ok') out = http(200, ['Content-Type: application/json'], JSON.stringify({ healthy: true, path: req.split(' ')[1] }));
    else if (md === 'notready') out = http(200, [], '{"healthy":false}');
    else if (md === 'notjson') out = http(200, [], 'hello');
    else if (md === 'null') out = http(200, [], 'null');
    else if (md === 'bigheaders') out = http(200, ['X-Big: ' + 'a'.repeat(70 * 1024)], '{"healthy":true}');
    else if (md === 'lines') out = http(200, Array.from({ length: 250 }, (_, i) => 'X-L' + i + ': v'), '{"healthy":true}');
    else if (md === 'proto') out = http(200, ['__proto__: x', 'constructor: y'], '{"healthy":true}');
    else if (md === 'http09') out = 'hello\n';
    else if (md === 'flood') out = http(200, [], 'x'.repeat(5 * 1024 * 1024));
    else out = http(500, [], 'unknown mode');
    c.end(out);
  });
  c.on('error', () => {});
});

// HOSTILE_LISTEN_AFTER_CODE=1: listen only once a project's code is in
// the folder the server runs in (create --code brings it while the
// server starts); a create that waits for the server before its code
// goes in never sees it ready.  A project named "never" keeps it from
// listening at all (its name is known once the code is in).
function codeIn() {
  try {
    return fs.readdirSync('.').some((d) => d !== 'never' &&
      fs.existsSync(d + '/.git/refs/spaced/start'));
  } catch (e) { return false; }
}
function listen() {
  if (process.env.HOSTILE_LISTEN_AFTER_CODE && !codeIn()) return setTimeout(listen, 100);
  server.listen(port, '127.0.0.1');
}
listen();
