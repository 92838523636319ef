/**
 * What the CI's bench smoke (bench/smoke.ts) calls a benchmark that stopped working: a clean set of
 * results passes, and each kind of breakage is named. Never a time.
 */
import { smokeProblems, type SmokeResults } from '../../../bench/lib/smoke-check';

const figures = { rps: 40, p50: 2, p95: 3, p99: 4, errors: 0, non2xx: 0, cpuMs: 0.5 };

function clean(): SmokeResults {
  return {
    data: [{ db: 'sqlite', violations: 0 } as SmokeResults['data'][number]],
    api: [
      {
        db: 'sqlite',
        name: 'member-page1',
        what: 'member/list page 1',
        real: { ...figures },
        floor: { ...figures },
      } as SmokeResults['api'][number],
    ],
    exports: [
      { db: 'sqlite', name: 'order/export', format: 'csv', rows: 2000, csvLines: 2001, bytes: 9e5 },
      { db: 'sqlite', name: 'order/export', format: 'xlsx', rows: 2000, bytes: 4e5 },
    ] as SmokeResults['exports'],
    batch: [
      { db: 'sqlite', count: 50, succeeded: 50, approvedInDb: 50, opLogRows: 50, repeatSucceeded: 0 },
    ] as SmokeResults['batch'],
    buyers: [
      {
        db: 'sqlite',
        buyers: 30,
        stock: 10,
        orders: 10,
        bills: 10,
        stockLeft: 0,
        seconds: 0.1,
        refusals: { 库存不足: 20 },
        ledgerViolations: 0,
        counterViolations: 0,
      },
    ] as SmokeResults['buyers'],
    settle: [
      {
        db: 'sqlite',
        day: '2026-11-24',
        outcome: 'done',
        pledges: 1200,
        seeds: 1100,
        releaseRows: 2300,
        againOutcome: 'already',
        ledgerViolations: 0,
        counterViolations: 0,
      },
    ] as SmokeResults['settle'],
    web: {
      login: { jsBytesUsable: 100_000, jsBytesIdle: 120_000, jsFiles: 3, usableMs: 300 },
      pages: [
        {
          path: '/layout/mallLayout/orderLayout',
          title: '订单管理',
          jsBytes: 1,
          jsFiles: 1,
          allBytes: 1,
          firstRowMs: 300,
        },
        {
          path: '/layout/memberLayout/memberListLayout',
          title: '会员列表',
          jsBytes: 1,
          jsFiles: 1,
          allBytes: 1,
          firstRowMs: 400,
        },
      ],
      heaviest: null,
    },
  };
}

test('results of benchmarks that all worked: no problem, whatever the times', () => {
  const r = clean();
  r.api[0].real.rps = 0.5;
  r.settle[0].seconds = 9999;
  expect(smokeProblems(r)).toEqual([]);
});

test.each<[string, (r: SmokeResults) => void, RegExp]>([
  [
    'a skipped scenario',
    (r) => (r.api[0].skipped = 'HTTP 200 code 500 服务器错误'),
    /api sqlite member-page1: HTTP 200 code 500/,
  ],
  ['errors under load', (r) => (r.api[0].real.non2xx = 3), /real had 0 errors, 3 non-2xx/],
  ['a floor that answered nothing', (r) => (r.api[0].floor!.rps = 0), /floor answered no request/],
  ['no scenario at all', (r) => (r.api = []), /api: no scenario ran/],
  ['an export cut short', (r) => (r.exports[0].csvLines = 1500), /1500 CSV lines for 2000 rows/],
  [
    'an export answered as an envelope',
    (r) => (r.exports[1].skipped = 'HTTP 200 {"code":403'),
    /order\/export xlsx: HTTP 200/,
  ],
  ['a batch that approved twice', (r) => (r.batch[0].repeatSucceeded = 50), /the same batch again approved 50/],
  ['a batch short of its op-log rows', (r) => (r.batch[0].opLogRows = 49), /49 op-log rows/],
  ['an oversold SKU', (r) => (r.buyers[0].orders = 11), /stock 10 gave 11 orders/],
  ['a buyer refused by a crash', (r) => (r.buyers[0].refusals = { 'unexpected: TypeError': 20 }), /refusals/],
  [
    'a failed settlement',
    (r) => Object.assign(r.settle[0], { outcome: 'failed', error: 'boom' }),
    /2026-11-24 failed \(boom\)/,
  ],
  ['a day settled twice', (r) => (r.settle[0].againOutcome = 'done'), /the same day again was done/],
  ['a broken ledger', (r) => (r.settle[0].ledgerViolations = 2), /2 ledger, 0 counter violations/],
  ['a data set with violations', (r) => (r.data[0].violations = 1), /data sqlite: 1 ledger or counter/],
  ['a list page without rows', (r) => (r.web!.pages[1].firstRowMs = null), /memberListLayout 会员列表: no data row/],
  ['a list page missing from the menu', (r) => r.web!.pages.pop(), /web: no menu page memberListLayout/],
])('%s is a problem', (_, breakIt, message) => {
  const r = clean();
  breakIt(r);
  const problems = smokeProblems(r);
  expect(problems).toHaveLength(1);
  expect(problems[0]).toMatch(message);
});
