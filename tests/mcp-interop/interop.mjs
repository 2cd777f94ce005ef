// The official MCP TypeScript SDK's client drives `sbxctl mcp`
// (tests/integration/t-mcp-interop.sh): initialize, listTools, callTool
// run_command, start/read/stop, with node's own test runner.
// Usage: node --test interop.mjs, with SBXCTL (the binary) and SBX_SOCKET
// and WS (the workspace) in the environment.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const sbxctl = process.env.SBXCTL;
const ws = process.env.WS;

test('the SDK client drives sbxctl mcp', async () => {
  const transport = new StdioClientTransport({
    command: sbxctl,
    args: ['--no-autostart', '--socket', process.env.SBX_SOCKET, 'mcp',
           '--workspace', ws],
    cwd: ws,
    env: { ...process.env },
    stderr: 'inherit',
  });
  const client = new Client({ name: 'sbx-interop', version: '1.0.0' });
  await client.connect(transport);

  // initialize: connect() fails on a revision the SDK does not speak.
  assert.equal(client.getServerVersion().name, 'sbx');
  assert.ok(client.getServerCapabilities().tools);
  assert.match(client.getInstructions(), /sbx sandbox/);

  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name).sort();
  assert.deepEqual(names, ['describe_sandbox', 'read_output', 'run_command',
                           'start_command', 'stop_command', 'write_input']);
  const run = tools.find((t) => t.name === 'run_command');
  assert.match(run.description, /The sandbox's rules:/);

  const res = await client.callTool({
    name: 'run_command',
    arguments: { command: 'echo interop > interop.txt; cat interop.txt' },
  });
  assert.equal(res.isError, false);
  assert.equal(res.structuredContent.exitCode, 0);
  assert.equal(res.structuredContent.stdout, 'interop\n');
  assert.match(res.content[0].text, /exit code 0/);

  const started = await client.callTool({
    name: 'start_command',
    arguments: { argv: ['sh', '-c', 'echo up; exec sleep 1000'] },
  });
  const id = started.structuredContent.id;
  assert.ok(id > 0);
  const out = await client.callTool({
    name: 'read_output', arguments: { id, wait: 30 },
  });
  assert.equal(out.structuredContent.stdout, 'up\n');
  assert.equal(out.structuredContent.running, true);
  const stopped = await client.callTool({
    name: 'stop_command', arguments: { id },
  });
  assert.equal(stopped.structuredContent.running, false);
  assert.equal(stopped.structuredContent.signal, 15);

  await client.ping();
  await client.close();
});
