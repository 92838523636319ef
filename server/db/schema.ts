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
  created_at: number;
  updated_at: number;
  /** Bumped on every save; a save names the version it read (optimistic concurrency). */
  version: Generated<number>;
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

export interface Database {
  role: RoleTable;
  permission: PermissionTable;
  role_permission: RolePermissionTable;
  manager: ManagerTable;
  session: SessionTable;
  op_log: OpLogTable;
  login_attempt: LoginAttemptTable;
  zone: ZoneTable;
  member: MemberTable;
  member_count: MemberCountTable;
  member_phone_count: MemberPhoneCountTable;
  account: AccountTable;
  bill: BillTable;
  bill_stat: BillStatTable;
  setting: SettingTable;
  deposit_account: DepositAccountTable;
  deposit: DepositTable;
  deposit_stat: DepositStatTable;
  withdrawal: WithdrawalTable;
  withdrawal_stat: WithdrawalStatTable;
  payment_method: PaymentMethodTable;
  payment_stat: PaymentStatTable;
  transfer: TransferTable;
  transfer_stat: TransferStatTable;
}
