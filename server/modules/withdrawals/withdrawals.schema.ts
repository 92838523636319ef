import { Type } from '@sinclair/typebox';
import { ExportFormatQuery } from '../../export/export';
import {
  OPEN_HOURS_PATTERN,
  WithdrawStatus as StatusEnum,
  WithdrawType as TypeEnum,
} from '../../../domain/withdrawals';
import {
  ChainEnum,
  CursorQuery,
  CursorResult,
  DecimalString,
  IdParam,
  EnumSchema,
  MoneyString,
  MultilineText,
  Ok,
  PageOf,
  PageQuery,
  RangeQuery,
  StringEnum,
  TxHash,
  MemberColumns,
  NullableInt,
  NullableString,
} from '../../http/schemas';

/** 1 提现 (USDT), 2 提取 (LZ) */
export const WithdrawType = EnumSchema(TypeEnum, { description: '1 提现 (USDT), 2 提取 (LZ)' });
/** 0 待审核, 1 待打款, 2 已完成, 3 已驳回 */
export const WithdrawStatus = EnumSchema(StatusEnum);

const WithdrawFilters = {
  type: WithdrawType,
  id: Type.Optional(IdParam('提现ID')),
  keyword: Type.Optional(
    Type.String({ maxLength: 20, title: '关键字', description: 'member uid (exact) or phone (prefix)' }),
  ),
  status: Type.Optional(WithdrawStatus),
  address: Type.Optional(Type.String({ maxLength: 100, title: '地址' })),
  txHash: Type.Optional(Type.String({ maxLength: 100, title: '交易哈希' })),
  ...RangeQuery,
};

export const WithdrawListQuery = Type.Object(
  {
    ...PageQuery,
    ...CursorQuery,
    sort: Type.Optional(StringEnum(['id', 'createdAt', 'amount', 'auditedAt', 'paidAt'], { title: '排序字段' })),
    ...WithdrawFilters,
  },
  { additionalProperties: false },
);

/** The export: the list's filters, every row, newest first. */
export const WithdrawExportQuery = Type.Object(
  { ...WithdrawFilters, ...ExportFormatQuery },
  { additionalProperties: false },
);

export const WithdrawRow = Type.Object({
  id: Type.Integer(),
  ...MemberColumns,
  type: WithdrawType,
  asset: Type.String({ description: 'USDT (type 1) or LZ (type 2)' }),
  amount: Type.String(),
  fee: Type.String(),
  actual: Type.String({ description: 'amount − fee' }),
  chain: Type.String(),
  address: Type.String(),
  status: WithdrawStatus,
  txHash: NullableString,
  remark: Type.String(),
  auditorId: NullableInt,
  auditorName: NullableString,
  auditedAt: NullableInt,
  paidAt: NullableInt,
  createdAt: Type.Integer({ description: 'epoch ms' }),
});

export const WithdrawListResult = Ok(
  PageOf(WithdrawRow, {
    ...CursorResult,
    sum: Type.Object({
      amount: Type.String({ description: 'sum over all filtered rows, in the type’s asset' }),
      fee: Type.String(),
      count: Type.Integer(),
    }),
  }),
);

export const WithdrawAction = StringEnum(['approve', 'paid', 'reject'], {
  title: '操作',
  description: 'approve 0→1; paid 1→2 (txHash); reject 0|1→3 (remark)',
});

export const WithdrawOptBody = Type.Object(
  {
    id: IdParam('提现ID'),
    action: WithdrawAction,
    txHash: Type.Optional(TxHash('交易哈希', 'required for paid: 64 hex digits (TRC20) or 0x + 64 (ERC20)')),
    remark: Type.Optional(MultilineText('备注', 200, { description: 'required for reject' })),
  },
  { additionalProperties: false },
);
export const WithdrawOptResult = Ok(Type.Object({ id: Type.Integer(), status: WithdrawStatus }));

export const WithdrawBatchBody = Type.Object(
  {
    ids: Type.Array(IdParam('提现ID'), { title: '提现ID', minItems: 1, maxItems: 1000 }),
    action: WithdrawAction,
    remark: Type.Optional(MultilineText('备注', 200, { description: 'required for reject' })),
    txHash: Type.Optional(TxHash('交易哈希', 'optional for paid: one hash for the whole batch')),
  },
  { additionalProperties: false },
);
export const WithdrawBatchResult = Ok(
  Type.Object({
    succeeded: Type.Array(Type.Integer()),
    failed: Type.Array(Type.Object({ id: Type.Integer(), msg: Type.String() })),
  }),
);

export const WithdrawSettingQuery = Type.Object({ type: WithdrawType }, { additionalProperties: false });

export const WithdrawSettingBody = Type.Object(
  {
    type: WithdrawType,
    open: Type.Boolean({ title: '开关' }),
    min: MoneyString('单笔最低金额'),
    max: MoneyString('单笔最高金额'),
    maxTimesPerDay: Type.Integer({ minimum: 0, maximum: 1000, title: '每日次数', description: '0 = no limit' }),
    feeRate: DecimalString('手续费率', { description: 'decimal, 0 ≤ r < 1' }),
    feeMin: MoneyString('最低手续费'),
    autoApproveMax: MoneyString('自动审核额度'),
    openHours: Type.String({ pattern: OPEN_HOURS_PATTERN, title: '开放时间', examples: ['09:00-18:00'] }),
  },
  { additionalProperties: false },
);

export const WithdrawAccountBody = Type.Object(
  {
    type: WithdrawType,
    chain: ChainEnum,
    address: Type.String({ minLength: 1, maxLength: 100, title: '地址' }),
    remark: Type.Optional(MultilineText('备注', 200)),
  },
  { additionalProperties: false },
);

export const WithdrawSettingResult = Ok(
  Type.Object({
    type: WithdrawType,
    asset: Type.String(),
    open: Type.Boolean(),
    min: Type.String(),
    max: Type.String({ description: '"0" = no limit' }),
    maxTimesPerDay: Type.Integer({ description: '0 = no limit' }),
    feeRate: Type.String(),
    feeMin: Type.String(),
    autoApproveMax: Type.String({ description: '"0" = never automatic' }),
    openHours: Type.String(),
    updatedAt: NullableInt,
    updatedBy: Type.String(),
    account: Type.Object({
      chain: Type.String({ description: 'TRC20, ERC20 or "" when not set' }),
      address: Type.String(),
      remark: Type.String(),
      updatedAt: NullableInt,
      updatedBy: Type.String(),
    }),
  }),
);
