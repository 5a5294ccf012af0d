// Starts the language server with a side channel on file descriptor 3 so the benchmark can ask for the
// server's heap after a full garbage collection (node --expose-gc): resident memory alone cannot tell
// retained objects from heap V8 has grown and not yet given back. The product itself has no such request.
// Usage: node --expose-gc bench/server-probe.cjs SERVER_JS --stdio
'use strict';
const net = require('node:net');
const path = require('node:path');

const probe = new net.Socket({ fd: 3, readable: true, writable: true });
probe.on('data', () => {
  if (typeof global.gc === 'function') {
    global.gc();
    global.gc(); // the second pass frees what the first one's finalisers released
  }
  const m = process.memoryUsage();
  probe.write(JSON.stringify({ heapUsed: m.heapUsed, heapTotal: m.heapTotal, rss: m.rss, external: m.external, arrayBuffers: m.arrayBuffers }) + '\n');
});
probe.on('error', () => undefined);
probe.unref();

const server = path.resolve(process.argv[2]);
process.argv.splice(1, 2, server); // the server reads its own flags (--stdio) from argv as if started directly
require(server);
