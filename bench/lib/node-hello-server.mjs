// The throughput limit: a bare `node:http` server answering one small JSON body, the least any Node HTTP
// server can do per request. Started as its own Node process, like the product.
import { createServer } from 'node:http';

const body = JSON.stringify({ hello: 'world' });
createServer((_request, response) => {
  response.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
}).listen(Number(process.argv[2]), '127.0.0.1');
