/**
 * Table types for Kysely. Times are epoch milliseconds (BIGINT) so both databases compare and
 * index them the same way; money columns are BIGINT minor units, read as text (see ./sql.ts).
 * Each module adds its tables here next to the migration that creates them.
 */
import type { ColumnType, Generated } from 'kysely';

/** A BIGINT money column: read it as text with money() (server/db/sql.ts), write a bigint. */
export type Money = ColumnType<string, bigint | string, bigint | string>;

export interface RoleTable {
  id: Generated<number>;
  name: string;
  remark: string;
  is_super: number;
  /** Bumped on every bind so each server process knows when its cached grants are stale. */
  perm_version: Generated<number>;
  /** 1: the role's managers must bind an authenticator before anything else. */
  require_totp: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface PermissionTable {
  id: number;
  parent_id: number | null;
  code: string;
  title: string;
  kind: string;
  sort: number;
}

export interface RolePermissionTable {
  role_id: number;
  permission_id: number;
}

export interface ManagerTable {
  id: Generated<number>;
  username: string;
  password_hash: string;
  role_id: number;
  /** 1 启用, 0 禁用 */
  status: number;
  last_login_at: number | null;
  last_login_ip: string | null;
  /** The login before the current one (the welcome page's 上次登录). */
  prev_login_at: number | null;
  prev_login_ip: string | null;
  created_at: number;
  updated_at: number;
  /** Bumped on every save; a save names the version it read (optimistic concurrency). */
  version: Generated<number>;
  /** 1: an authenticator is bound (manager_totp confirmed): logins ask for a code. */
  totp_on: Generated<number>;
}

export interface SessionTable {
  id: Generated<number>;
  /** Not a foreign key: a deleted manager's sessions must still answer 302, not vanish into 301. */
  manager_id: number;
  token_hash: string;
  ip: string;
  user_agent: string;
  created_at: number;
  last_seen_at: number;
  revoked_at: number | null;
  /** 'logout' (answers 301) or 'ended' (disabled, deleted, password changed, session limit: 302). */
  revoked_reason: string | null;
  /** When this session last gave an authenticator code (login or step-up). */
  mfa_at: Generated<number | null>;
}

export interface ManagerTotpTable {
  manager_id: number;
  /** AES-256-GCM under TOTP_KEY: base64url of iv(12) | tag(16) | ciphertext. */
  secret_enc: string;
  /** Null until the first code confirms the binding. */
  confirmed_at: number | null;
  /** The newest time step accepted (replay guard). */
  last_step: Generated<number>;
  created_at: number;
}

export interface TotpRecoveryTable {
  id: Generated<number>;
  manager_id: number;
  /** HMAC-SHA-256 (key from TOTP_KEY) of the normalised code, hex. */
  code_hash: string;
  used_at: number | null;
}

export interface LoginChallengeTable {
  id: Generated<number>;
  token_hash: string;
  manager_id: number;
  ip: string;
  created_at: number;
  failures: Generated<number>;
  used_at: number | null;
}

export interface OpLogTable {
  id: Generated<number>;
  manager_id: number;
  username: string;
  permission_code: string;
  target: string;
  summary: string;
  ip: string;
  created_at: number;
}

export interface LoginAttemptTable {
  username: string;
  ip: string;
  window_start: number;
  failures: number;
}

export interface ZoneTable {
  id: Generated<number>;
  name: string;
  leader_uid: string | null;
  status: number;
  sort: number;
  /** Kept by the member service in the same transaction as every zone change of a member. */
  member_count: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface MemberTable {
  id: Generated<number>;
  /** 8 digits, shown to people; `id` stays internal. */
  uid: string;
  phone: string;
  nickname: string;
  password_hash: string;
  inviter_id: number | null;
  zone_id: number | null;
  level: Generated<number>;
  status: Generated<number>;
  real_name_status: Generated<number>;
  created_at: number;
  last_login_at: number | null;
}

/**
 * Members per (zone, level, status); zone_id 0 = no zone. Kept by the member repository
 * (countNewMembers, moveMemberCount) in the same transaction as every member insert and zone/level/status change.
 */
export interface MemberCountTable {
  zone_id: number;
  level: number;
  status: number;
  n: number;
}

/** Members per (first three phone digits, zone, level, status): member_count split by phone prefix. */
export interface MemberPhoneCountTable {
  phone3: string;
  zone_id: number;
  level: number;
  status: number;
  n: number;
}

/**
 * Bills counted and summed per (kind, bucket, asset, type): kind 'D' = one Asia/Shanghai day (bucket =
 * day number), 'B' = a block of 32 days (bucket = day number / 32). Written by the ledger with each bill.
 */
export interface BillStatTable {
  kind: 'D' | 'B';
  bucket: number;
  asset: string;
  type: number;
  n: number;
  change_sum: Money;
  frozen_change_sum: Money;
}

/** Withdrawals per (type, status) with their amount and fee sums; moved with every insert and status change. */
export interface WithdrawalStatTable {
  type: number;
  status: number;
  n: number;
  amount_sum: Money;
  fee_sum: Money;
}

/** Deposits per status with their amount sum; moved with every insert and status change. */
export interface DepositStatTable {
  status: number;
  n: number;
  amount_sum: Money;
}

/** Payment methods per (type, status); moved with every insert and status change. */
export interface PaymentStatTable {
  type: number;
  status: number;
  n: number;
}

/**
 * Transfers counted and summed per (kind, bucket, asset): kind 'D' = one Asia/Shanghai day (bucket = day
 * number), 'B' = a block of 32 days (bucket = day number / 32). Written with each transfer.
 */
export interface TransferStatTable {
  kind: 'D' | 'B';
  bucket: number;
  asset: string;
  n: number;
  amount_sum: Money;
  fee_sum: Money;
}

/** One per member × asset. Only server/modules/ledger writes it. */
export interface AccountTable {
  member_id: number;
  asset: string;
  available: Money;
  frozen: Money;
  updated_at: number;
}

export interface BillTable {
  id: Generated<number>;
  member_id: number;
  asset: string;
  type: number;
  change: Money;
  available_after: Money;
  frozen_change: Money;
  frozen_after: Money;
  ref_kind: string;
  ref_id: number | null;
  remark: string;
  created_at: number;
}

/** One setting per key; `value` is JSON (server/modules/settings). */
export interface SettingTable {
  key: string;
  value: string;
  updated_at: number;
  updated_by: string;
}

export interface DepositAccountTable {
  id: Generated<number>;
  chain: string;
  address: string;
  qr_url: string;
  /** 1 启用, 0 停用 */
  status: number;
  remark: string;
  created_at: number;
  updated_at: number;
}

export interface DepositTable {
  id: Generated<number>;
  member_id: number;
  chain: string;
  from_address: string;
  to_address: string;
  amount: Money;
  tx_hash: string;
  proof_url: string;
  /** 0 待确认, 1 已到账, 2 已驳回 */
  status: Generated<number>;
  remark: string;
  auditor_id: number | null;
  auditor_name: string | null;
  audited_at: number | null;
  created_at: number;
}

export interface WithdrawalTable {
  id: Generated<number>;
  member_id: number;
  /** 1 提现 (USDT), 2 提取 (LZ) */
  type: number;
  asset: string;
  amount: Money;
  fee: Money;
  actual: Money;
  chain: string;
  address: string;
  /** 0 待审核, 1 待打款, 2 已完成, 3 已驳回 */
  status: Generated<number>;
  tx_hash: string | null;
  remark: string;
  auditor_id: number | null;
  auditor_name: string | null;
  audited_at: number | null;
  paid_at: number | null;
  created_at: number;
}

export interface PaymentMethodTable {
  id: Generated<number>;
  member_id: number;
  /** 1 银行卡, 2 支付宝, 3 微信, 4 USDT-TRC20 */
  type: number;
  holder: string;
  account: string;
  bank: string;
  branch: string;
  qr_url: string;
  /** 0 待审核, 1 已通过, 2 已驳回, 3 已禁用 */
  status: Generated<number>;
  remark: string;
  auditor_id: number | null;
  auditor_name: string | null;
  audited_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface TransferTable {
  id: Generated<number>;
  from_member_id: number;
  to_member_id: number;
  asset: string;
  amount: Money;
  fee: Money;
  created_at: number;
}

/**
 * One row per Asia/Shanghai day the settlement job started (server/modules/settlement): its state, the
 * lease of the process doing it and what it paid.
 */
export interface SettlementRunTable {
  /** Asia/Shanghai day number (server/db/dayBuckets.ts dayOf). */
  day: number;
  /** 1 进行中, 2 已完成, 3 失败 */
  status: Generated<number>;
  /** The process holding the lease ('' when none). */
  owner: Generated<string>;
  /** Epoch ms until which `owner` holds the day; another process may take it after. */
  lease_until: Generated<number>;
  started_at: number;
  finished_at: number | null;
  pledges: Generated<number>;
  pledge_yield: ColumnType<string, bigint | string | undefined, bigint | string>;
  pledge_principal: ColumnType<string, bigint | string | undefined, bigint | string>;
  seeds: Generated<number>;
  seed_energy: ColumnType<string, bigint | string | undefined, bigint | string>;
  matches_cancelled: Generated<number>;
  error: Generated<string>;
}

/** A seed: energy released daily by the settlement job (DOMAIN.md §3 Bills and energy). */
export interface SeedTable {
  id: Generated<number>;
  member_id: number;
  name: string;
  /** 1 商城购买, 2 后台赠送, 3 活动奖励 */
  source: number;
  /** The order id of a mall purchase. */
  ref_id: number | null;
  total_energy: Money;
  /** floor(total_energy / days); the end day releases the rest. */
  daily_energy: Money;
  days: number;
  /** Asia/Shanghai day numbers: releases on start_day+1 … end_day (= start_day + days). */
  start_day: number;
  end_day: number;
  /** The last day released (= start_day at creation). */
  paid_day: number;
  /** Energy released so far (minor units); 0 at creation. */
  released: ColumnType<string, bigint | string | undefined, bigint | string>;
  /** 1 生长中, 2 已成熟 */
  status: Generated<number>;
  created_at: number;
  finished_at: number | null;
}

/** One day's release of a seed; UNIQUE (seed_id, day). */
export interface SeedReleaseTable {
  id: Generated<number>;
  seed_id: number;
  member_id: number;
  day: number;
  amount: Money;
  created_at: number;
}

/** A match: LZ sold by one member to another, paid off-platform. */
export interface MatchTradeTable {
  id: Generated<number>;
  seller_id: number;
  buyer_id: number;
  /** LZ minor units. */
  quantity: Money;
  /** USDT minor units per 1 LZ. */
  unit_price: Money;
  /** USDT minor units: quantity × unit_price / 10^4, rounded half up. */
  total: Money;
  /** JSON snapshot of the seller's payment method (domain/matches.ts PaymentSnapshot). */
  payment: string;
  proof_url: Generated<string>;
  /** 1 待付款, 2 待确认收款, 3 已完成, 4 已取消, 5 申诉中 */
  status: Generated<number>;
  appeal_reason: Generated<string>;
  /** 0 none, 1 seller, 2 buyer */
  appeal_by: Generated<number>;
  remark: Generated<string>;
  expires_at: number;
  paid_at: number | null;
  finished_at: number | null;
  arbiter_id: number | null;
  arbiter_name: string | null;
  created_at: number;
  updated_at: number;
}

/** Seeds per (source, status) with their total and released energy. */
export interface SeedStatTable {
  source: number;
  status: number;
  n: number;
  total_sum: Money;
  released_sum: Money;
}

/** Seed releases per Asia/Shanghai day with their energy. */
export interface SeedReleaseStatTable {
  day: number;
  n: number;
  amount_sum: Money;
}

/** Matches per status with their quantity and total. */
export interface MatchStatTable {
  status: number;
  n: number;
  quantity_sum: Money;
  total_sum: Money;
}

/** A pledge mode: the terms a member may pledge LZ at (DOMAIN.md §3 Pledge). */
export interface PledgeModeTable {
  id: Generated<number>;
  name: string;
  days: number;
  /** Daily rate over 10^RATE_DECIMALS (12300 = 1.23 %). */
  rate: Money;
  min_amount: Money;
  max_amount: Money;
  /** 1 启用, 0 停用 */
  status: Generated<number>;
  sort: Generated<number>;
  created_at: number;
  updated_at: number;
}

/** A pledge: LZ staked with its mode's terms (snapshot), paid daily by the settlement job. */
export interface PledgeTable {
  id: Generated<number>;
  member_id: number;
  mode_id: number;
  mode_name: string;
  amount: Money;
  rate: Money;
  days: number;
  daily_yield: Money;
  total_yield: Money;
  /** Asia/Shanghai day numbers: releases on start_day+1 … end_day (= start_day + days). */
  start_day: number;
  end_day: number;
  /** The last day released (= start_day at creation). */
  paid_day: number;
  released: ColumnType<string, bigint | string | undefined, bigint | string>;
  /** 1 质押中, 2 已到期 */
  status: Generated<number>;
  created_at: number;
  finished_at: number | null;
}

/** One day's release of a pledge (its yield, and on the end day its principal); UNIQUE (pledge_id, day). */
export interface PledgeReleaseTable {
  id: Generated<number>;
  pledge_id: number;
  member_id: number;
  day: number;
  amount: Money;
  principal: ColumnType<string, bigint | string | undefined, bigint | string>;
  created_at: number;
}

/** Pledges per (mode_id, status) with their amount and released sums. */
export interface PledgeStatTable {
  mode_id: number;
  status: number;
  n: number;
  amount_sum: Money;
  released_sum: Money;
}

/** A member's pledges per (mode_id, status) with amount, released and their count of releases. */
export interface PledgeMemberStatTable {
  member_id: number;
  mode_id: number;
  status: number;
  n: number;
  amount_sum: Money;
  released_sum: Money;
  release_n: number;
}

/** A member's seeds per (source, status) with total energy, released and their count of releases. */
export interface SeedMemberStatTable {
  member_id: number;
  source: number;
  status: number;
  n: number;
  total_sum: Money;
  released_sum: Money;
  release_n: number;
}

/** A member's matches on one side per status with quantity and total. */
interface MatchSideStat {
  status: number;
  n: number;
  quantity_sum: Money;
  total_sum: Money;
}

/** A member's matches as seller. */
export interface MatchSellerStatTable extends MatchSideStat {
  seller_id: number;
}

/** A member's matches as buyer. */
export interface MatchBuyerStatTable extends MatchSideStat {
  buyer_id: number;
}

/** Pledge releases per Asia/Shanghai day with their yield and principal sums. */
export interface PledgeReleaseStatTable {
  day: number;
  n: number;
  amount_sum: Money;
  principal_sum: Money;
}

/** A notice (server/modules/content): status 0 草稿 / 1 已发布 / 2 已下线. */
export interface NoticeTable {
  id: Generated<number>;
  title: string;
  content: string;
  pinned: Generated<number>;
  status: Generated<number>;
  published_at: number | null;
  created_at: number;
  updated_at: number;
  updated_by: string;
}

/** One of the two texts: id 6 平台介绍, 8 玩法说明. */
export interface ProtocolTable {
  id: number;
  title: string;
  content: string;
  updated_at: number;
  updated_by: string;
}

/** Every LZ price change (USDT minor units per LZ); the newest row is the price now. */
export interface LzPriceTable {
  id: Generated<number>;
  price: Money;
  created_at: number;
  created_by: string;
}

/** Members created per Asia/Shanghai day (server/modules/members/counts.repository.ts). */
export interface MemberDayStatTable {
  day: number;
  n: number;
}

export interface Database {
  role: RoleTable;
  permission: PermissionTable;
  role_permission: RolePermissionTable;
  manager: ManagerTable;
  session: SessionTable;
  op_log: OpLogTable;
  login_attempt: LoginAttemptTable;
  manager_totp: ManagerTotpTable;
  totp_recovery: TotpRecoveryTable;
  login_challenge: LoginChallengeTable;
  totp_attempt: LoginAttemptTable;
  zone: ZoneTable;
  member: MemberTable;
  member_count: MemberCountTable;
  member_phone_count: MemberPhoneCountTable;
  account: AccountTable;
  bill: BillTable;
  bill_stat: BillStatTable;
  setting: SettingTable;
  notice: NoticeTable;
  protocol: ProtocolTable;
  lz_price: LzPriceTable;
  member_day_stat: MemberDayStatTable;
  deposit_account: DepositAccountTable;
  deposit: DepositTable;
  deposit_stat: DepositStatTable;
  withdrawal: WithdrawalTable;
  withdrawal_stat: WithdrawalStatTable;
  payment_method: PaymentMethodTable;
  payment_stat: PaymentStatTable;
  transfer: TransferTable;
  transfer_stat: TransferStatTable;
  pledge_mode: PledgeModeTable;
  pledge: PledgeTable;
  pledge_release: PledgeReleaseTable;
  pledge_stat: PledgeStatTable;
  pledge_member_stat: PledgeMemberStatTable;
  pledge_release_stat: PledgeReleaseStatTable;
  seed: SeedTable;
  seed_release: SeedReleaseTable;
  seed_stat: SeedStatTable;
  seed_member_stat: SeedMemberStatTable;
  seed_release_stat: SeedReleaseStatTable;
  match_trade: MatchTradeTable;
  match_stat: MatchStatTable;
  match_seller_stat: MatchSellerStatTable;
  match_buyer_stat: MatchBuyerStatTable;
  settlement_run: SettlementRunTable;
  upload: UploadTable;
  product: ProductTable;
  product_sku: ProductSkuTable;
  mall_order: MallOrderTable;
  product_stat: ProductStatTable;
  catalog_version: CatalogVersionTable;
  order_stat: OrderStatTable;
  order_product_stat: OrderProductStatTable;
  order_member_stat: OrderMemberStatTable;
  order_day_stat: OrderDayStatTable;
}

/** One upload ticket (`GET oss`) and, once used, what was stored under its key. */
export interface UploadTable {
  id: Generated<number>;
  key: string;
  /** SHA-256 (hex) of the ticket's token. */
  token_hash: string;
  manager_id: number;
  max_size: number;
  expires_at: number;
  used_at: number | null;
  size: number | null;
  mime: string | null;
  width: number | null;
  height: number | null;
  created_at: number;
}

/** A mall product (DOMAIN.md §3 Mall). Price, stock and sales are derived from its SKUs. */
export interface ProductTable {
  id: Generated<number>;
  name: string;
  /** 1 实物, 2 种子 */
  kind: number;
  /** The asset it is paid in: USDT, LZ or ENERGY. */
  asset: string;
  cover: Generated<string>;
  /** JSON array of image URLs. */
  gallery: Generated<string>;
  /** Sanitized HTML (server/http/richText.ts). */
  detail: Generated<string>;
  /** 种子: the total energy (ENERGY minor units) one bought grants, released over seed_days. */
  seed_energy: ColumnType<string, bigint | string | undefined, bigint | string>;
  seed_days: Generated<number>;
  /** JSON SpecDim[] (domain/mall.ts): the dimensions its SKU table was generated from. */
  specs: Generated<string>;
  sort: Generated<number>;
  /** 0 下架, 1 上架 */
  status: Generated<number>;
  deleted_at: number | null;
  created_at: number;
  updated_at: number;
  updated_by: Generated<string>;
}

/** One SKU of a product: a combination of spec values with its price and stock. */
export interface ProductSkuTable {
  id: Generated<number>;
  product_id: number;
  /** "颜色:红, 尺寸:L" ("" with no dimensions): unique per product. */
  spec: string;
  /** JSON string[] of the values, in the product's dimension order. */
  spec_values: string;
  /** Minor units of the product's asset. */
  price: Money;
  stock: Money;
  sales: ColumnType<string, bigint | string | undefined, bigint | string>;
  image: Generated<string>;
  position: Generated<number>;
  /** 1 when left out of the product's current set (kept for the orders that point at it). */
  deleted: Generated<number>;
}

/** A mall order: paid when placed; a snapshot of what was bought. */
export interface MallOrderTable {
  id: Generated<number>;
  member_id: number;
  product_id: number;
  sku_id: number;
  kind: number;
  asset: string;
  product_name: string;
  spec: string;
  image: string;
  unit_price: Money;
  quantity: number;
  total: Money;
  receiver_name: Generated<string>;
  receiver_phone: Generated<string>;
  receiver_address: Generated<string>;
  /** 1 待发货, 2 已发货, 3 已完成, 4 已取消 */
  status: number;
  express_company: Generated<string>;
  tracking_no: Generated<string>;
  remark: Generated<string>;
  seed_id: number | null;
  operator_name: string | null;
  /** The buyer when he ordered (the export reads these, no member lookup). */
  buyer_uid: Generated<string>;
  buyer_phone: Generated<string>;
  buyer_nickname: Generated<string>;
  created_at: number;
  shipped_at: number | null;
  finished_at: number | null;
  updated_at: number;
}

/** Orders per (status, asset) with the sum of their totals. */
export interface OrderStatTable {
  status: number;
  asset: string;
  n: number;
  total_sum: Money;
}

/** Orders per (product, status, asset) with the sum of their totals. */
export interface OrderProductStatTable {
  product_id: number;
  status: number;
  asset: string;
  n: number;
  total_sum: Money;
}

/** Orders per Asia/Shanghai day ('D') and 32-day block ('B') and asset, with the sum of their totals. */
export interface OrderDayStatTable {
  kind: string;
  bucket: number;
  asset: string;
  n: number;
  total_sum: Money;
}

/** Orders per (member, status, asset) with the sum of their totals. */
export interface OrderMemberStatTable {
  member_id: number;
  status: number;
  asset: string;
  n: number;
  total_sum: Money;
}

/** The product catalog's version (one row, id 1): moved by every product write. */
export interface CatalogVersionTable {
  id: number;
  v: number;
}

/** Products per status (−1: deleted), kind and pay asset. */
export interface ProductStatTable {
  status: number;
  kind: number;
  asset: string;
  n: number;
}
