/**
 * The live channel (GET /v1/admin/events): what the server says changed, and what the console makes
 * stale for it. A topic names a kind of record; the console refetches the open lists of that kind.
 */

export const LiveTopics = [
  'withdrawal',
  'deposit',
  'depositAccount',
  'match',
  'order',
  'product',
  'member',
  'zone',
  'pledge',
  'pledgeMode',
  'seed',
  'payment',
  'transfer',
  'notice',
  'protocol',
  'setting',
  'manager',
  'role',
  'oplog',
] as const;
export type LiveTopic = (typeof LiveTopics)[number];

const TOPIC_SET: ReadonlySet<string> = new Set(LiveTopics);
export const isLiveTopic = (s: string): s is LiveTopic => TOPIC_SET.has(s);

/** The topic of an operation-log target ('withdrawal#12', 'manager#3 (alice)', 'setting'), if any. */
export function topicOfTarget(target: string): LiveTopic | undefined {
  const m = /^[A-Za-z]+/.exec(target);
  return m && isLiveTopic(m[0]) ? m[0] : undefined;
}

/** What the live channel sends. */
export interface LiveChange {
  /** Kinds of records that changed since the last message. */
  topics: LiveTopic[];
  /** New requests since the last message (only those the manager may review): 提现, 提取, 充值. */
  news: { withdraw?: number; extract?: number; deposit?: number };
}

/** How often a server process looks for changes while a console listens (ms). */
export const LIVE_TICK_MS = 1000;
/** A comment line keeps proxies from closing a quiet stream (ms). */
export const LIVE_KEEPALIVE_MS = 15_000;
