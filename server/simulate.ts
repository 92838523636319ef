/**
 * `npm run simulate`: keeps members busy against the configured DATABASE_URL, so the console has
 * fresh work (deposits to confirm, withdrawals to approve and pay, transfers and payment methods to
 * review) while someone is looking at it. Every action goes through the member-side services the
 * demo data and the tests use (submitDeposit, requestWithdrawal, transfer, addPaymentMethod), so a
 * refusal (balance, limits, frozen member) is the service's own and money moves only through the
 * ledger. Managers' actions are left to the people using the console. A share of the actions
 * (`economy`, 0.3 from the command line) pledges, grants seeds, places and pays mall orders (buyProduct) and
 * walks matches (open, pay, confirm, appeal).
 *
 *   npm run simulate -- [--interval 2000] [--actions 5] [--ticks 0] [--members 20] [--seed 1]
 *
 * --ticks 0 (the default) runs until Ctrl-C.
 */
import type { FastifyBaseLogger } from 'fastify';
import { parseAsset } from '../domain/money';
import type { PaymentType } from '../domain/payments';
import { systemClock, type Clock } from './clock';
import { ConfigError, loadConfig } from './config';
import type { Ctx } from './context';
import { createDb } from './db/dialect';
import { migrateToLatest } from './db/migrate';
import { AppError, badInput } from './errors';
import { submitDeposit } from './modules/deposits/deposits.service';
import { buyProduct } from './modules/mall/orders.service';
import { appeal, confirmReceipt, markPaid, openMatch } from './modules/matches/matches.service';
import { listPledgeModes, pledge } from './modules/pledge/pledge.service';
import { grantSeed } from './modules/seeds/seeds.service';
import { createMembers } from './modules/members/members.service';
import { addPaymentMethod } from './modules/payments/payments.service';
import { demoQr } from './modules/payments/payments.demo';
import { transfer } from './modules/transfers/transfers.service';
import { requestWithdrawal } from './modules/withdrawals/requestWithdrawal.service';

export interface SimulateOptions {
  /** Actions per tick. */
  actions: number;
  /** The simulator opens members of its own (uid 98xxxxxx) until the table holds this many. */
  members: number;
  seed: number;
  /** The share of actions (0–1) that are pledges, seed grants and match steps (open, pay, confirm, appeal); 0 when absent. */
  economy?: number;
}

export const defaultSimulateOptions: SimulateOptions = { actions: 5, members: 20, seed: 1, economy: 0.3 };

export type ActionKind =
  | 'deposit'
  | 'withdraw'
  | 'extract'
  | 'transfer'
  | 'payment'
  | 'pledge'
  | 'seed'
  | 'order'
  | 'matchOpen'
  | 'matchPay'
  | 'matchConfirm'
  | 'matchAppeal';

export interface TickResult {
  done: Record<ActionKind, number>;
  /** Refusals by message (a member asking for more than he has is normal traffic). */
  refused: Record<string, number>;
}

const NAMES = ['林晓', '高峰', '郑爽', '何静', '罗军', '梁红', '宋涛', '谢敏', '韩雪', '唐亮'];
const BANKS = ['中国银行', '交通银行', '招商银行', '中国工商银行'];
const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const HEX = '0123456789abcdef';
const SEED_NAMES = ['红杉种子', '银杏种子', '松柏种子'];
const APPEALS = ['已付款但卖家未确认', '未收到买家付款', '付款凭证金额不符'];
const ADDRESSES = [
  '江苏省南京市鼓楼区中山北路30号',
  '湖北省武汉市洪山区珞喻路1037号',
  '福建省厦门市思明区环岛南路88号',
  '山东省青岛市市南区香港中路61号',
];

/** A seeded generator (mulberry32), so a run can be repeated. */
export function seededRandom(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Simulator {
  private readonly rnd: () => number;
  /** The 收款码 images of the methods members add (four, made once, real files like the demo's). */
  private readonly qrs = new Map<string, string>();
  private qrCount = 0;
  constructor(
    private readonly ctx: Ctx,
    private readonly opts: SimulateOptions = defaultSimulateOptions,
  ) {
    this.rnd = seededRandom(opts.seed);
  }

  private int(min: number, max: number) {
    return min + Math.floor(this.rnd() * (max - min + 1));
  }
  private pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.rnd() * xs.length)];
  }
  private chars(alphabet: string, n: number) {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(this.rnd() * alphabet.length)];
    return s;
  }
  private trc20() {
    return `T${this.chars(B58, 33)}`;
  }
  private erc20() {
    return `0x${this.chars(HEX, 40)}`;
  }

  /** Opens members (accounts at zero, no money) until the table holds `opts.members`. */
  async ensureMembers(): Promise<void> {
    const { db } = this.ctx;
    const n = await db
      .selectFrom('member')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    for (let have = Number(n.n), i = 1; have < this.opts.members && i < 1_000_000; i++) {
      const uid = `98${String(i).padStart(6, '0')}`;
      const phone = `198${String(i).padStart(8, '0')}`;
      const taken = await db
        .selectFrom('member')
        .select('id')
        .where((eb) => eb.or([eb('uid', '=', uid), eb('phone', '=', phone)]))
        .executeTakeFirst();
      if (taken) continue;
      const now = this.ctx.clock.now();
      await db.transaction().execute((trx) =>
        createMembers(trx, [
          {
            uid,
            phone,
            nickname: `${NAMES[i % NAMES.length]}${i}`,
            // Not a usable password: simulated members never log in.
            passwordHash: '!simulated',
            createdAt: now,
          },
        ]),
      );
      have += 1;
    }
  }

  private async someMembers(n: number) {
    const rows = await this.ctx.db
      .selectFrom('member')
      .select(['id', 'uid'])
      .where('status', '<>', 2)
      .orderBy('id', 'desc')
      .limit(200)
      .execute();
    const out: Array<{ id: number; uid: string }> = [];
    for (let i = 0; i < n && rows.length; i++) {
      const r = this.pick(rows);
      out.push({ id: Number(r.id), uid: r.uid });
    }
    return out;
  }

  /** One round of `opts.actions` member actions. */
  async tick(): Promise<TickResult> {
    await this.ensureMembers();
    const result: TickResult = {
      done: {
        deposit: 0,
        withdraw: 0,
        extract: 0,
        transfer: 0,
        payment: 0,
        pledge: 0,
        seed: 0,
        order: 0,
        matchOpen: 0,
        matchPay: 0,
        matchConfirm: 0,
        matchAppeal: 0,
      },
      refused: {},
    };
    const members = await this.someMembers(this.opts.actions * 2);
    if (members.length === 0) return result;
    for (let i = 0; i < this.opts.actions; i++) {
      const m = members[(2 * i) % members.length];
      const other = members[(2 * i + 1) % members.length];
      const economy = this.opts.economy ?? 0;
      const kind: ActionKind = economy > 0 && this.rnd() < economy ? this.economyKind() : this.moneyKind();
      try {
        await this.act(kind, m, other);
        result.done[kind] += 1;
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        result.refused[err.message] = (result.refused[err.message] ?? 0) + 1;
      }
    }
    return result;
  }

  private moneyKind(): ActionKind {
    const r = this.rnd();
    return r < 0.4 ? 'deposit' : r < 0.55 ? 'withdraw' : r < 0.65 ? 'extract' : r < 0.85 ? 'transfer' : 'payment';
  }

  private economyKind(): ActionKind {
    const r = this.rnd();
    return r < 0.15
      ? 'pledge'
      : r < 0.27
        ? 'seed'
        : r < 0.42
          ? 'order'
          : r < 0.57
            ? 'matchOpen'
            : r < 0.75
              ? 'matchPay'
              : r < 0.9
                ? 'matchConfirm'
                : 'matchAppeal';
  }

  /** A recent match in one of `statuses`, or a refusal counted like any other. */
  private async recentMatch(statuses: number[]) {
    const rows = await this.ctx.db
      .selectFrom('match_trade')
      .select(['id', 'seller_id', 'buyer_id'])
      .where('status', 'in', statuses)
      .orderBy('id', 'desc')
      .limit(20)
      .execute();
    if (!rows.length) throw badInput('没有可操作的撮合');
    const r = this.pick(rows);
    return { id: Number(r.id), sellerId: Number(r.seller_id), buyerId: Number(r.buyer_id) };
  }

  private async act(kind: ActionKind, m: { id: number; uid: string }, other: { id: number; uid: string }) {
    const ctx = this.ctx;
    switch (kind) {
      case 'pledge': {
        const modes = (await listPledgeModes(ctx)).list.filter((x) => x.status === 1);
        if (!modes.length) throw badInput('没有可用的质押模式');
        const mode = this.pick(modes);
        const min = parseAsset(mode.minAmount, 'LZ');
        if (!min.ok) throw badInput('没有可用的质押模式');
        await pledge(ctx, { memberId: m.id, modeId: mode.id, amount: min.value * BigInt(this.int(1, 3)) });
        return;
      }
      case 'seed':
        await grantSeed(ctx, {
          memberId: m.id,
          name: this.pick(SEED_NAMES),
          source: this.int(1, 3),
          totalEnergy: BigInt(this.int(50, 2000) * 100),
          days: this.pick([7, 15, 30]),
        });
        return;
      case 'order': {
        const skus = await ctx.db
          .selectFrom('product_sku as s')
          .innerJoin('product as p', 'p.id', 's.product_id')
          .select('s.id')
          .where('p.status', '=', 1)
          .where('p.deleted_at', 'is', null)
          .where('s.deleted', '=', 0)
          .where('s.stock', '>', '0')
          .orderBy('s.id', 'desc')
          .limit(50)
          .execute();
        if (!skus.length) throw badInput('没有可购买的商品');
        await buyProduct(ctx, {
          memberId: m.id,
          skuId: Number(this.pick(skus).id),
          quantity: this.rnd() < 0.8 ? 1 : 2,
          receiver: {
            name: this.pick(NAMES),
            phone: `139${this.chars('0123456789', 8)}`,
            address: this.pick(ADDRESSES),
          },
        });
        return;
      }
      case 'matchOpen':
        await openMatch(ctx, {
          sellerId: m.id,
          buyerId: other.id,
          quantity: BigInt(this.pick([10, 50, 100, 200])) * 10_000n,
          unitPrice: BigInt(this.int(400_000, 600_000)),
        });
        return;
      case 'matchPay': {
        const x = await this.recentMatch([1]);
        await markPaid(ctx, { matchId: x.id, buyerId: x.buyerId, proofUrl: '/uploads/demo/match-proof-1.png' });
        return;
      }
      case 'matchConfirm': {
        const x = await this.recentMatch([2]);
        await confirmReceipt(ctx, { matchId: x.id, sellerId: x.sellerId });
        return;
      }
      case 'matchAppeal': {
        const x = await this.recentMatch([1, 2]);
        await appeal(ctx, {
          matchId: x.id,
          memberId: this.rnd() < 0.5 ? x.sellerId : x.buyerId,
          reason: this.pick(APPEALS),
        });
        return;
      }
      case 'deposit': {
        const chain = this.rnd() < 0.7 ? ('TRC20' as const) : ('ERC20' as const);
        await submitDeposit(ctx, {
          memberId: m.id,
          chain,
          fromAddress: chain === 'TRC20' ? this.trc20() : this.erc20(),
          amount: String(this.pick([50, 100, 200, 300, 500, 1000, 2000]) + this.int(0, 99) / 100),
          txHash: chain === 'TRC20' ? this.chars(HEX, 64) : `0x${this.chars(HEX, 64)}`,
        });
        return;
      }
      case 'withdraw':
      case 'extract': {
        const type = kind === 'withdraw' ? 1 : 2;
        const chain = this.rnd() < 0.7 ? ('TRC20' as const) : ('ERC20' as const);
        await requestWithdrawal(ctx, {
          memberId: m.id,
          type,
          amount: String(type === 1 ? this.pick([20, 50, 100, 200, 500]) : this.pick([100, 500, 1000, 5000])),
          chain,
          address: chain === 'TRC20' ? this.trc20() : this.erc20(),
        });
        return;
      }
      case 'transfer':
        await transfer(ctx, {
          fromMemberId: m.id,
          toUid: other.uid,
          asset: this.rnd() < 0.6 ? 'USDT' : 'LZ',
          amount: String(this.pick([5, 10, 20, 50, 100, 200])),
        });
        return;
      case 'payment': {
        const type = this.int(1, 4) as PaymentType;
        const holder = this.pick(NAMES);
        await addPaymentMethod(ctx, {
          memberId: m.id,
          type,
          holder,
          account:
            type === 1
              ? `62${this.chars('0123456789', 16)}`
              : type === 4
                ? this.trc20()
                : `1${this.chars('0123456789', 10)}`,
          bank: type === 1 ? this.pick(BANKS) : undefined,
          branch: type === 1 ? '营业部' : undefined,
          qrUrl: type === 2 || type === 3 ? await demoQr(this.ctx, type, this.qrCount++ % 4, this.qrs) : undefined,
        });
        return;
      }
    }
  }
}

function argValue(argv: string[], name: string, def: number): number {
  const i = argv.indexOf(`--${name}`);
  if (i < 0) return def;
  const v = Number(argv[i + 1]);
  if (!Number.isInteger(v) || v < 0) throw new ConfigError(`--${name} must be a whole number, got "${argv[i + 1]}"`);
  return v;
}

const consoleLog = {
  info: (...a: unknown[]) => console.log(...a),
  warn: (...a: unknown[]) => console.warn(...a),
  error: (...a: unknown[]) => console.error(...a),
  debug: () => {},
  trace: () => {},
  fatal: (...a: unknown[]) => console.error(...a),
  child() {
    return this;
  },
  level: 'info',
  silent: () => {},
} as unknown as FastifyBaseLogger;

async function main(argv: string[], clock: Clock = systemClock) {
  const config = loadConfig();
  const interval = argValue(argv, 'interval', 2000);
  const ticks = argValue(argv, 'ticks', 0);
  const opts: SimulateOptions = {
    actions: argValue(argv, 'actions', defaultSimulateOptions.actions),
    members: argValue(argv, 'members', defaultSimulateOptions.members),
    seed: argValue(argv, 'seed', Date.now() % 1_000_000),
    economy: defaultSimulateOptions.economy,
  };
  const { db, kind, close } = createDb(config.databaseUrl);
  await migrateToLatest(db);
  const sim = new Simulator({ db, kind, config, clock, log: consoleLog }, opts);
  console.log(
    `simulating member activity on ${kind} every ${interval} ms, ${opts.actions} actions a tick (seed ${opts.seed}); Ctrl-C stops`,
  );
  let stopping = false;
  const stop = () => {
    stopping = true;
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  for (let n = 1; !stopping && (ticks === 0 || n <= ticks); n++) {
    const r = await sim.tick();
    const done = Object.entries(r.done)
      .filter(([, v]) => v)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    const refused = Object.entries(r.refused)
      .map(([k, v]) => `${k} ×${v}`)
      .join('; ');
    console.log(`tick ${n}: ${done || 'nothing'}${refused ? ` | refused: ${refused}` : ''}`);
    if (!stopping && (ticks === 0 || n < ticks)) await new Promise((res) => setTimeout(res, interval));
  }
  await close();
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((err) => {
    if (err instanceof ConfigError) {
      console.error(`配置错误 (configuration error): ${err.message}`);
      process.exit(2);
    }
    console.error(err);
    process.exit(1);
  });
}
