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

/**
 * The pages whose managers hear of a topic (any one of them): a manager learns only that records of a
 * page they may open changed.
 */
export const TopicPages: Readonly<Record<LiveTopic, readonly string[]>> = {
  withdrawal: ['withdraw:view', 'extract:view'],
  deposit: ['deposit:view'],
  depositAccount: ['depositAccount:view'],
  match: ['match:view'],
  order: ['order:view'],
  product: ['product:view', 'order:view'],
  member: ['member:view', 'zone:view', 'query:view'],
  zone: ['zone:view', 'member:view'],
  pledge: ['pledge:view'],
  pledgeMode: ['pledgeMode:view'],
  seed: ['seed:view'],
  payment: ['payment:view'],
  transfer: ['transfer:view'],
  notice: ['notice:view'],
  protocol: ['intro:view', 'play:view'],
  setting: ['setting:view', 'withdrawSetting:view', 'depositSetting:update'],
  manager: ['manager:view'],
  role: ['role:view', 'manager:view'],
  oplog: ['oplog:view'],
};

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
