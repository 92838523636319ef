import { stopServer, type RunningServer } from './server';

export default async function globalTeardown() {
  const server = (globalThis as { __E2E_SERVER__?: RunningServer }).__E2E_SERVER__;
  if (server) {
    const code = await stopServer(server);
    if (code !== 0) throw new Error(`server did not shut down cleanly on SIGTERM (exit ${code}):\n${server.output()}`);
  }
}
