/**
 * The floor of a throughput ratio: fastify alone, with nothing of Quarry's,
 * answering the same POST with the same reply bytes from memory, and a
 * /healthz like Quarry's. No route with this request and this answer can do
 * better on this machine than the ratio of these two.
 */
import Fastify from 'fastify';

export interface FastifyFloor {
  base: string;
  close(): Promise<void>;
}

export async function startFastifyFloor(
  path: string,
  reply: { body: Buffer; contentType: string },
  health: unknown,
): Promise<FastifyFloor> {
  const server = Fastify();
  server.post(path, async (_request, answer) => {
    answer.type(reply.contentType);
    return reply.body;
  });
  server.get('/healthz', async () => health);
  const base = await server.listen({ host: '127.0.0.1', port: 0 });
  return { base, close: () => server.close() };
}
