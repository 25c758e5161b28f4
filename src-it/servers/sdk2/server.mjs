// MCP servers written with the TypeScript SDK 2.x (@modelcontextprotocol/server, pinned in
// ../package.json), for ModernSdkIT. install.sh copies this file into the install
// (.it-servers/sdk2/), so that it resolves the SDK from there.
//
//   node server.mjs dual          serveStdio as most servers use it: both eras
//   node server.mjs modern-only   serveStdio with legacy: 'reject' (2026-07-28 only)
//   node server.mjs isolating     declares caller identity with an isolation self-test that keeps
//                                 each caller's marker apart (the example of docs/verdicts.md)
//   node server.mjs leaking       the same declaration, but one marker for the whole process
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod/v4';

const mode = process.argv[2] ?? 'dual';
const CALLER_KEY = 'dev.kcshare/caller';
const markers = new Map();
let processMarker = '';

function createServer() {
  const server = new McpServer({ name: `sdk2-${mode}`, version: '2.4.0-it' });
  server.registerTool(
    'echo',
    {
      description: 'Echoes its input.',
      inputSchema: z.object({ text: z.string() }),
      annotations: { readOnlyHint: true },
    },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  if (mode === 'isolating' || mode === 'leaking') {
    server.server.registerCapabilities({
      extensions: {
        'dev.kcshare/caller-identity': { callerMetaKey: CALLER_KEY, selfTest: 'isolation_self_test' },
      },
    });
    server.registerTool(
      'isolation_self_test',
      {
        description: "kcshare's isolation self-test: keeps a marker per caller, returns the caller's own",
        inputSchema: z.object({ marker: z.string() }),
      },
      async ({ marker }, ctx) => {
        if (mode === 'leaking') {
          if (marker !== '') processMarker = marker;
          return { content: [{ type: 'text', text: processMarker }] };
        }
        const caller = String(ctx.mcpReq._meta?.[CALLER_KEY] ?? '');
        if (marker !== '') markers.set(caller, marker);
        return { content: [{ type: 'text', text: markers.get(caller) ?? '' }] };
      },
    );
  }
  return server;
}

void serveStdio(createServer, mode === 'modern-only' ? { legacy: 'reject' } : {});
