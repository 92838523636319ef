import { Type } from '@sinclair/typebox';
import { ExportFormatQuery } from '../../export/export';
import { DepositAccountStatus as AccountStatusEnum, DepositStatus as StatusEnum } from '../../../domain/deposits';
import {
  ChainEnum,
  CursorQuery,
  CursorResult,
  IdParam,
  ImageUrl,
  EnumSchema,
  MoneyString,
  MultilineText,
  Ok,
  PageOf,
  PageQuery,
  RangeQuery,
  StringEnum,
  MemberColumns,
  Nullable,
} from '../../http/schemas';

/** 0 待确认, 1 已到账, 2 已驳回 */
export const DepositStatus = EnumSchema(StatusEnum);
/** 1 启用, 0 停用 */
export const DepositAccountStatus = EnumSchema(AccountStatusEnum);

const DepositFilters = {
  id: Type.Optional(IdParam('充值ID')),
  keyword: Type.Optional(
    Type.String({ maxLength: 20, title: '关键字', description: 'member uid (exact) or phone (prefix)' }),
  ),
  txHash: Type.Optional(Type.String({ maxLength: 100, title: '交易哈希' })),
  chain: Type.Optional(ChainEnum),
  status: Type.Optional(DepositStatus),
  ...RangeQuery,
};

export const DepositListQuery = Type.Object(
  {
    ...PageQuery,
    ...CursorQuery,
    sort: Type.Optional(StringEnum(['id', 'createdAt', 'amount', 'auditedAt'], { title: '排序字段' })),
    ...DepositFilters,
  },
  { additionalProperties: false },
);

/** The export: the list's filters, every row, newest first. */
export const DepositExportQuery = Type.Object(
  { ...DepositFilters, ...ExportFormatQuery },
  { additionalProperties: false },
);

export const DepositRow = Type.Object({
  id: Type.Integer(),
  ...MemberColumns,
  chain: ChainEnum,
  fromAddress: Type.String(),
  toAddress: Type.String(),
  amount: Type.String({ description: 'USDT decimal string' }),
  txHash: Type.String(),
  proofUrl: Type.String(),
  status: DepositStatus,
  remark: Type.String(),
  auditorId: Nullable(Type.Integer()),
  auditorName: Nullable(Type.String()),
  auditedAt: Nullable(Type.Integer({ description: 'epoch ms' })),
  createdAt: Type.Integer({ description: 'epoch ms' }),
});

export const DepositListResult = Ok(
  PageOf(DepositRow, {
    ...CursorResult,
    sum: Type.Object({
      amount: Type.String({ description: 'sum of amount over all filtered rows, USDT' }),
      count: Type.Integer(),
    }),
  }),
);

export const DepositOptBody = Type.Object(
  {
    id: IdParam('充值ID'),
    action: StringEnum(['confirm', 'reject'], { title: '操作', description: 'confirm 0→1 credits; reject 0→2' }),
    remark: Type.Optional(MultilineText('备注', 200, { description: 'required for reject' })),
  },
  { additionalProperties: false },
);
export const DepositOptResult = Ok(Type.Object({ id: Type.Integer(), status: DepositStatus }));

export const DepositSettingBody = Type.Object(
  {
    open: Type.Boolean({ title: '充值开关' }),
    min: MoneyString('最低充值金额'),
    chains: Type.Array(ChainEnum, { title: '开放的链', maxItems: 2, uniqueItems: true }),
    tips: MultilineText('充值提示', 1000),
  },
  { additionalProperties: false },
);

export const DepositSettingResult = Ok(
  Type.Object({
    open: Type.Boolean(),
    min: Type.String(),
    chains: Type.Array(ChainEnum),
    tips: Type.String(),
    updatedAt: Nullable(Type.Integer({ description: 'epoch ms; null: never saved (defaults)' })),
    updatedBy: Type.String(),
  }),
);

export const DepositAccountListQuery = Type.Object(
  {
    ...PageQuery,
    chain: Type.Optional(ChainEnum),
    status: Type.Optional(DepositAccountStatus),
    address: Type.Optional(Type.String({ maxLength: 100, title: '地址' })),
  },
  { additionalProperties: false },
);

export const DepositAccountRow = Type.Object({
  id: Type.Integer(),
  chain: ChainEnum,
  address: Type.String(),
  qrUrl: Type.String(),
  status: DepositAccountStatus,
  remark: Type.String(),
  createdAt: Type.Integer(),
  updatedAt: Type.Integer(),
});
export const DepositAccountListResult = Ok(PageOf(DepositAccountRow));

export const DepositAccountOptBody = Type.Object(
  {
    action: StringEnum(['create', 'update', 'enable', 'disable', 'delete'], { title: '操作' }),
    id: Type.Optional(IdParam('收款地址ID')),
    chain: Type.Optional(ChainEnum),
    address: Type.Optional(Type.String({ maxLength: 100, title: '地址' })),
    qrUrl: Type.Optional(ImageUrl('二维码图片')),
    status: Type.Optional(DepositAccountStatus),
    remark: Type.Optional(MultilineText('备注', 200)),
  },
  { additionalProperties: false },
);
export const DepositAccountOptResult = Ok(Type.Object({ id: Type.Integer() }));
