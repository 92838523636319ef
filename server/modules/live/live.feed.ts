/**
 * The live channel's source: what changed in the database, found by looking, so that it works the same
 * on SQLite and on PostgreSQL and with several server processes, and no writer can forget to announce
 * a change.
 *
 * While at least one console listens, each process looks once a second (LIVE_TICK_MS) at:
 * - the status counters kept in every writing transaction (withdrawal_stat, deposit_stat, match_stat,
 *   order_stat, …): a record that is created or changes status moves one of them, whoever wrote it
 *   (a manager, a member, the settlement job, another process);
 * - the operation log's new rows: every manager change writes one, and its target names the record
 *   ('withdrawal#12', 'setting'), which also covers edits that move no counter.
 * What it reads are committed rows, so a console never refetches before the change is visible.
 * About a dozen reads of small tables per second per process, whatever the number of listeners.
 *
 * Every fifth look also checks each listener's session (revoked, manager disabled, idle too long,
 * without extending it) and ends the stream of a dead one with a `session` event.
 */
import { sql } from 'kysely';
import { WaitingItems } from '../../../domain/waiting';
import { topicOfTarget, TopicPages, type LiveChange, type LiveTopic, LIVE_TICK_MS } from '../../../domain/live';
import type { Ctx } from '../../context';

/** The counter tables watched, each with the topic it announces and how it is read. */
const WATCHED: ReadonlyArray<{ topic: LiveTopic; table: string; read: 'rows' | 'sum' | 'blocks' }> = [
  { topic: 'withdrawal', table: 'withdrawal_stat', read: 'rows' },
  { topic: 'deposit', table: 'deposit_stat', read: 'rows' },
  { topic: 'match', table: 'match_stat', read: 'rows' },
  { topic: 'order', table: 'order_stat', read: 'rows' },
  { topic: 'product', table: 'product_stat', read: 'rows' },
  { topic: 'pledge', table: 'pledge_stat', read: 'rows' },
  { topic: 'seed', table: 'seed_stat', read: 'rows' },
  { topic: 'payment', table: 'payment_stat', read: 'rows' },
  { topic: 'member', table: 'member_count', read: 'sum' },
  { topic: 'transfer', table: 'transfer_stat', read: 'blocks' },
];

/** Session checks happen every this many looks. */
const SESSION_EVERY = 5;
/** Operation-log rows read per look (a burst larger than this is read over the next looks). */
const OPLOG_ROWS = 500;

export interface LiveListener {
  sessionId: number;
  /** The role's grant version when the stream began: a bind since ends the stream (codes are read anew). */
  permVersion: number;
  /** The manager's permission codes: news only for the pages they may open. */
  codes: ReadonlySet<string>;
  send: (change: LiveChange) => void;
  /**
   * The first look that began after this listener came has been taken: from here on every change is
   * announced, so the console refetches what it loaded before once (closing the gap before it came).
   */
  ready: () => void;
  /** The session is over: tell the console and end the stream. */
  expire: () => void;
  /** The server stops: end the stream (the console reconnects to another process). */
  close: () => void;
}

interface Look {
  prints: Map<LiveTopic, string>;
  /** Requests ever made per kind (withdrawal type 1, 2; deposits): rows are never deleted. */
  made: { withdraw: number; extract: number; deposit: number };
}

async function look(ctx: Ctx): Promise<Look> {
  const prints = new Map<LiveTopic, string>();
  const made = { withdraw: 0, extract: 0, deposit: 0 };
  for (const w of WATCHED) {
    const q =
      w.read === 'rows'
        ? sql`select * from ${sql.table(w.table)}`
        : w.read === 'sum'
          ? sql`select coalesce(sum(n), 0) as n from ${sql.table(w.table)}`
          : sql`select coalesce(sum(n), 0) as n from ${sql.table(w.table)} where kind = 'B'`;
    const { rows } = await q.execute(ctx.db);
    // Row order is not guaranteed without ORDER BY: compare the rows as a set.
    prints.set(
      w.topic,
      rows
        .map((r) => JSON.stringify(r))
        .sort()
        .join('\n'),
    );
    if (w.topic === 'withdrawal')
      for (const r of rows as Array<{ type: number; n: number | string }>) {
        if (Number(r.type) === 1) made.withdraw += Number(r.n);
        if (Number(r.type) === 2) made.extract += Number(r.n);
      }
    if (w.topic === 'deposit') for (const r of rows as Array<{ n: number | string }>) made.deposit += Number(r.n);
  }
  return { prints, made };
}

export class LiveFeed {
  /** Each listener with the number of looks begun when it came. */
  private readonly listeners = new Map<LiveListener, { after: number; ready: boolean }>();
  /** Looks begun. */
  private begun = 0;
  private timer: NodeJS.Timeout | null = null;
  private last: Look | null = null;
  private lastOpLogId: number | null = null;
  private looks = 0;
  private running = false;
  /** Bumped when looking stops: a look still in flight then forgets what it saw. */
  private generation = 0;

  constructor(private readonly ctx: Ctx) {}

  /** Adds a listener; returns its removal. Looking starts with the first and stops with the last. */
  subscribe(listener: LiveListener): () => void {
    this.listeners.set(listener, { after: this.begun, ready: false });
    if (!this.timer) {
      this.timer = setInterval(() => void this.tick(), LIVE_TICK_MS);
      void this.tick(); // the baseline at once
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stop();
    };
  }

  get size() {
    return this.listeners.size;
  }

  /** Ends every stream and stops looking (the server closes). */
  shutdown() {
    for (const l of [...this.listeners.keys()]) l.close();
    this.listeners.clear();
    this.stop();
  }

  private stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.last = null;
    this.lastOpLogId = null;
    this.generation += 1;
  }

  /** One look: announces what changed since the previous one (the first only sets the baseline). */
  async tick(): Promise<void> {
    if (this.running) return; // a slow look is not stacked
    this.running = true;
    const look = ++this.begun;
    const generation = this.generation;
    try {
      const seen = await this.look();
      // Everyone left while it looked: what it saw must not become the next console's baseline.
      if (generation !== this.generation) return;
      const change = this.compare(seen);
      for (const [l, state] of this.listeners) {
        if (change) {
          const topics = change.topics.filter((t) => TopicPages[t].some((code) => l.codes.has(code)));
          const news = newsFor(change.news, l.codes);
          if (topics.length) l.send({ topics, news });
        }
        if (!state.ready && look > state.after) {
          state.ready = true;
          l.ready();
        }
      }
      if (++this.looks % SESSION_EVERY === 0) await this.checkSessions();
    } catch (err) {
      this.ctx.log.warn({ err }, 'live feed look failed');
    } finally {
      this.running = false;
    }
  }

  /** Reads the counters and the operation log's new rows (the first time, only its last id). */
  private async look(): Promise<{ now: Look; opTargets: string[] | null; opLogId: number }> {
    const now = await look(this.ctx);
    if (this.lastOpLogId === null) {
      const row = await this.ctx.db
        .selectFrom('op_log')
        .select(sql<number>`coalesce(max(id), 0)`.as('id'))
        .executeTakeFirst();
      return { now, opTargets: null, opLogId: Number(row?.id ?? 0) };
    }
    const rows = await this.ctx.db
      .selectFrom('op_log')
      .select(['id', 'target'])
      .where('id', '>', this.lastOpLogId)
      .orderBy('id')
      .limit(OPLOG_ROWS)
      .execute();
    return {
      now,
      opTargets: rows.map((r) => r.target),
      opLogId: rows.length ? Number(rows[rows.length - 1].id) : this.lastOpLogId,
    };
  }

  /** What changed since the previous look (nothing the first time: that one is the baseline). */
  private compare(seen: { now: Look; opTargets: string[] | null; opLogId: number }): LiveChange | null {
    const { now, opTargets, opLogId } = seen;
    const topics = new Set<LiveTopic>();
    const news: LiveChange['news'] = {};
    if (this.last) {
      for (const [topic, print] of now.prints) if (this.last.prints.get(topic) !== print) topics.add(topic);
      for (const k of ['withdraw', 'extract', 'deposit'] as const) {
        const d = now.made[k] - this.last.made[k];
        if (d > 0) news[k] = d;
      }
    }
    this.last = now;
    this.lastOpLogId = opLogId;
    for (const target of opTargets ?? []) {
      const t = topicOfTarget(target);
      if (t) topics.add(t);
    }
    if (opTargets?.length) topics.add('oplog');
    return topics.size ? { topics: [...topics].sort(), news } : null;
  }

  private async checkSessions(): Promise<void> {
    const ids = [...new Set([...this.listeners.keys()].map((l) => l.sessionId))];
    if (!ids.length) return;
    const rows = await this.ctx.db
      .selectFrom('session as s')
      .leftJoin('manager as m', 'm.id', 's.manager_id')
      .leftJoin('role as r', 'r.id', 'm.role_id')
      .select(['s.id', 's.revoked_reason', 's.last_seen_at', 'm.status', 'r.perm_version'])
      .where('s.id', 'in', ids)
      .execute();
    const idleMs = this.ctx.config.tokenIdleHours * 3_600_000;
    const now = this.ctx.clock.now();
    const alive = new Map(
      rows
        .filter((r) => !r.revoked_reason && r.status === 1 && now - Number(r.last_seen_at) <= idleMs)
        .map((r) => [Number(r.id), Number(r.perm_version ?? 0)]),
    );
    for (const l of [...this.listeners.keys()]) {
      const version = alive.get(l.sessionId);
      if (version === undefined) l.expire();
      // The role's grants changed: end the stream; the console reconnects with the codes of now.
      else if (version !== l.permVersion) l.close();
    }
  }
}

/** The news a manager may see: only the kinds whose review page they may open. */
function newsFor(news: LiveChange['news'], codes: ReadonlySet<string>): LiveChange['news'] {
  const out: LiveChange['news'] = {};
  for (const k of ['withdraw', 'extract', 'deposit'] as const)
    if (news[k] && codes.has(WaitingItems[k].page)) out[k] = news[k];
  return out;
}

/** One feed per database handle (the app's, or a test's). */
const feeds = new WeakMap<object, LiveFeed>();
export function liveFeedOf(ctx: Ctx): LiveFeed {
  let f = feeds.get(ctx.db);
  if (!f) feeds.set(ctx.db, (f = new LiveFeed(ctx)));
  return f;
}
