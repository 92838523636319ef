/** The slice of autocannon's API the bench uses (the package ships no types). */
declare module 'autocannon' {
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    /** Requests to send in all, instead of a duration. */
    amount?: number;
    headers?: Record<string, string>;
    /** ms between samples (default 1000); a run ends at a sample. */
    sampleInt?: number;
    /** Called with each connection's client before it sends: per-connection headers. */
    setupClient?: (client: { setHeaders(headers: Record<string, string>): void }) => void;
  }
  interface Result {
    errors: number;
    timeouts: number;
    non2xx: number;
    requests: { average: number };
    latency: { p50: number; p97_5: number; p99: number; max: number };
  }
  interface Instance {
    on(
      event: 'response',
      fn: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void,
    ): void;
  }
  function autocannon(opts: Options, cb: (err: Error | null, res: Result) => void): Instance;
  export type { Result };
  export default autocannon;
}
