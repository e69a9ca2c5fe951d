// A minimal MCP server over stdio (raw JSON-RPC, no SDK) whose one tool has the unportable output
// schema shapes the Inspector's `--strict` check names: a type array and a schema with no validation
// keyword. It exists so the test of our tools list can show the check it relies on does find them.
import { createInterface } from 'node:readline';

const tool = {
  name: 'unportable',
  description: 'A tool whose output schema is not portable.',
  inputSchema: { type: 'object', properties: {} },
  outputSchema: {
    type: 'object',
    properties: { count: { type: ['integer', 'null'] }, anything: {} },
  },
};

const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
for await (const line of createInterface({ input: process.stdin })) {
  const request = JSON.parse(line);
  if (request.id === undefined) continue;
  if (request.method === 'initialize') {
    send({
      jsonrpc: '2.0',
      id: request.id,
      result: {
        protocolVersion: request.params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: 'unportable', version: '0.0.0' },
      },
    });
  } else if (request.method === 'tools/list') {
    send({ jsonrpc: '2.0', id: request.id, result: { tools: [tool] } });
  } else {
    send({ jsonrpc: '2.0', id: request.id, error: { code: -32601, message: 'Method not found' } });
  }
}
