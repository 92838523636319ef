// Preloaded (`node -r ./bench/lib/mem-probe.js …`) into a server the bench starts: samples
// process.memoryUsage() every 20 ms and keeps the sample with the highest RSS, with V8's heap spaces
// at that moment. On SIGUSR2 it writes that sample (and the current one) as JSON to BENCH_MEM_FILE
// and starts over, so each measured request gets its own peak. Plain JavaScript: nothing to compile,
// nothing loaded into the server but this file and node:v8. Only in the main thread: an export's
// worker thread loads it too (it inherits the process's flags), where a second sampler would only cost
// the worker CPU (~3 % of a CSV export's, profiled) — the process's RSS covers every thread, and the
// signal reaches the main thread alone.
'use strict';
const fs = require('node:fs');
const v8 = require('node:v8');
const { isMainThread } = require('node:worker_threads');

const file = process.env.BENCH_MEM_FILE;
if (file && isMainThread) {
  const spaces = () => Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, s.space_size]));
  const sample = () => ({ ...process.memoryUsage(), spaces: spaces() });
  let peak = sample();
  const timer = setInterval(() => {
    const rss = process.memoryUsage.rss();
    if (rss > peak.rss) peak = { ...sample(), rss };
  }, 20);
  timer.unref();
  process.on('SIGUSR2', () => {
    fs.writeFileSync(file, JSON.stringify({ peak, now: sample() }));
    peak = sample();
  });
}
