// mcp_client.mjs drives a blockmate MCP server with the official MCP
// TypeScript SDK's client (@modelcontextprotocol/sdk, pinned in
// package.json), so blockmate is tested by a client it did not write.
//
// Usage: node mcp_client.mjs '{"transport":"stdio","command":"…","args":[…]}'
//        node mcp_client.mjs '{"transport":"http","url":"http://127.0.0.1:…/mcp","token":"…"}'
//
// It runs one fixed scenario and prints one JSON line per step on stdout
// (the Go test checks them): connected, tools, good, bad, unknown, fenced,
// progress, cancelled, logs. Anything else goes to stderr.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js'

const cfg = JSON.parse(process.argv[2])
const out = (step, fields) => process.stdout.write(JSON.stringify({ step, ...fields }) + '\n')

const transport = cfg.transport === 'stdio'
  ? new StdioClientTransport({ command: cfg.command, args: cfg.args, stderr: 'inherit' })
  : new StreamableHTTPClientTransport(new URL(cfg.url), { requestInit: { headers: { Authorization: `Bearer ${cfg.token}` } } })

const client = new Client({ name: 'blockmate-ts-test', version: '1.0.0' })
const logs = []
client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => { logs.push(n.params) })

const call = async (name, args, options) => {
  try {
    return { result: await client.callTool({ name, arguments: args }, undefined, options) }
  } catch (err) {
    return { error: String(err && err.message ? err.message : err) }
  }
}

try {
  await client.connect(transport)
  out('connected', {
    protocolVersion: transport.protocolVersion ?? client._protocolVersion ?? null,
    serverInfo: client.getServerVersion(),
    instructions: client.getInstructions(),
    capabilities: client.getServerCapabilities()
  })

  const { tools } = await client.listTools()
  out('tools', { tools })

  out('good', await call('mc_wait', { ms: 0 }))
  out('bad', await call('mc_wait', { ms: 'four' }))
  out('unknown', await call('mc_stauts', {}))
  out('fenced', await call('mc_ping_server', { host: '127.0.0.1', port: cfg.closedPort }))

  // Events as log messages: mc_task_progress is logged at debug.
  await client.setLoggingLevel('debug')

  const progress = []
  const waited = await call('mc_wait', { ms: 1500 }, { onprogress: (p) => progress.push(p) })
  out('progress', { ...waited, progress })

  // A long wait, cancelled by the client once its first progress shows it
  // is running.
  const abort = new AbortController()
  const seen = []
  const cancelled = await call('mc_wait', { ms: 600000 }, {
    signal: abort.signal,
    onprogress: (p) => { seen.push(p); abort.abort('the test cancels the wait') }
  })
  out('cancelled', { ...cancelled, progress: seen })

  // The next call after a cancel starts clean.
  out('after', await call('mc_wait', { ms: 0 }))
  out('logs', { logs })
} catch (err) {
  out('failed', { error: String(err && err.stack ? err.stack : err) })
  process.exitCode = 1
} finally {
  await client.close().catch(() => {})
}
