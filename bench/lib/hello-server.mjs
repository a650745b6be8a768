// The throughput baseline: the smallest useful Fastify server (one JSON route), as the product would be
// without any of its work. Started as its own Node process, like the product.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port: Number(process.argv[2]), host: '127.0.0.1' });
