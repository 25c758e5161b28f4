#!/usr/bin/env node
// The physical floor of a pre-flight: the least any client can spend to look at a stdio MCP server
// once. A bare Node.js client (no SDK, nothing but node:child_process) spawns the server, sends one
// `initialize` (the legacy protocol version and empty capabilities, as kcshare does), waits for its
// answer, sends `notifications/initialized` and one `tools/list`, waits for that answer, closes the
// server's stdin and waits for the server to exit. It follows no `nextCursor`, answers no request of
// the server's and sets no timer: anything a real tool adds costs more, not less.
//
//   node floor.mjs [--identities N] [--env NAME=VALUE]... COMMAND [ARG...]
//
// With --identities 2 it does the same for two copies of the server at once, each its own process
// under its own clientInfo name, and ends when both have exited: the least a client can spend on
// what a pre-flight does (two identities, concurrently), with no JVM, no comparison and no write.
//
// Exits 0 when every answer came and none was an error, with the number of tools on stdout; else 1.
// The servers' stderr is discarded.
import { spawn } from "node:child_process";

const argv = process.argv.slice(2);
const env = { ...process.env };
let identities = 1;
for (;;) {
  if (argv[0] === "--env") {
    const pair = argv[1] ?? "";
    const eq = pair.indexOf("=");
    if (eq <= 0) fail(`--env needs NAME=VALUE, got ${JSON.stringify(pair)}`);
    env[pair.slice(0, eq)] = pair.slice(eq + 1);
  } else if (argv[0] === "--identities") {
    identities = Number(argv[1]);
    if (!Number.isInteger(identities) || identities < 1) {
      fail(`--identities needs a positive whole number, got ${JSON.stringify(argv[1])}`);
    }
  } else {
    break;
  }
  argv.splice(0, 2);
}
if (argv.length === 0) {
  fail("usage: floor.mjs [--identities N] [--env NAME=VALUE]... COMMAND [ARG...]");
}

function fail(message) {
  process.stderr.write(`floor: ${message}\n`);
  process.exit(1);
}

let tools = -1;
let running = identities;

function handshake(name) {
  const server = spawn(argv[0], argv.slice(1), { env, stdio: ["pipe", "pipe", "ignore"] });
  server.on("error", (e) => fail(`spawn failed: ${e.message}`));
  server.stdin.on("error", () => {}); // a server that exits early: its exit says so below
  let listed = false;
  let buffered = "";
  server.stdout.setEncoding("utf8");
  server.stdout.on("data", (chunk) => {
    buffered += chunk;
    let nl;
    while ((nl = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, nl).trim();
      buffered = buffered.slice(nl + 1);
      if (line) answer(JSON.parse(line));
    }
  });
  const send = (message) => server.stdin.write(JSON.stringify(message) + "\n");

  function answer(message) {
    if (message.id === 1) {
      if (message.error) fail(`initialize: ${JSON.stringify(message.error)}`);
      send({ jsonrpc: "2.0", method: "notifications/initialized" });
      send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
    } else if (message.id === 2) {
      if (message.error || !Array.isArray(message.result?.tools)) {
        fail(`tools/list: ${JSON.stringify(message.error ?? message.result)}`);
      }
      tools = message.result.tools.length;
      listed = true;
      server.stdin.end();
    }
  }

  server.on("exit", (code, signal) => {
    if (!listed) fail(`the server exited (${signal ?? code}) before answering`);
    if (--running === 0) process.stdout.write(`${tools}\n`);
  });

  send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2024-11-05",
      capabilities: {},
      clientInfo: { name, version: "1" },
    },
  });
}

for (let i = 0; i < identities; i++) {
  handshake(identities === 1 ? "floor" : `floor-${String.fromCharCode(97 + (i % 26))}`);
}
