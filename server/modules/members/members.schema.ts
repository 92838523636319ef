/** The member routes' schemas; the types a member row shares with zones and the asset query. */
import { Type } from '@sinclair/typebox';
import {
  MEMBER_PASSWORD_PATTERN,
  MemberActions,
  MemberLevel as LevelEnum,
  MemberStatus as StatusEnum,
  PHONE_PATTERN,
  RealNameStatus as RealNameEnum,
} from '../../../domain/members';
import {
  AssetSchema,
  CursorQuery,
  CursorResult,
  EnumSchema,
  IdParam,
  MoneyString,
  MultilineText,
  Ok,
  PageOf,
  PageQuery,
  RangeQuery,
  StringEnum,
  NullableInt,
  NullableString,
} from '../../http/schemas';

/** 1 正常, 2 冻结, 3 禁止提现 */
export const MemberStatus = EnumSchema(StatusEnum);
/** 0 普通会员, 1–5 V1–V5 */
export const MemberLevel = EnumSchema(LevelEnum, { description: '0 普通会员, 1–5 V1–V5' });
export const RealNameStatus = EnumSchema(RealNameEnum);
export const AssetEnum = AssetSchema('币种');

export const Keyword = Type.String({
  maxLength: 50,
  title: '关键字',
  description: 'uid (exact, 8 digits), phone (prefix, digits) or nickname (exact)',
});

// ---- members ----

export const MemberListQuery = Type.Object(
  {
    ...PageQuery,
    ...CursorQuery,
    sort: Type.Optional(StringEnum(['id', 'createdAt', 'level'], { title: '排序字段' })),
    keyword: Type.Optional(Keyword),
    inviterUid: Type.Optional(Type.String({ maxLength: 8, title: '邀请人UID' })),
    zoneId: Type.Optional(IdParam('专区')),
    level: Type.Optional(MemberLevel),
    status: Type.Optional(MemberStatus),
    ...RangeQuery,
  },
  { additionalProperties: false },
);

export const Balance = Type.Object({
  available: Type.String({ description: 'decimal string' }),
  frozen: Type.String({ description: 'decimal string' }),
});
export const Balances = Type.Object({ USDT: Balance, LZ: Balance, ENERGY: Balance });

export const MemberRow = Type.Object({
  id: Type.Integer(),
  uid: Type.String(),
  phone: Type.String(),
  nickname: Type.String(),
  inviterUid: NullableString,
  zoneId: NullableInt,
  zoneName: NullableString,
  level: MemberLevel,
  status: MemberStatus,
  realNameStatus: RealNameStatus,
  balances: Balances,
  createdAt: Type.Integer({ description: 'epoch ms' }),
  lastLoginAt: NullableInt,
});
export const MemberListResult = Ok(PageOf(MemberRow, CursorResult));

export const MemberCreateBody = Type.Object(
  {
    phone: Type.String({ pattern: PHONE_PATTERN, title: '手机号', description: 'mainland mobile, 11 digits' }),
    password: Type.String({
      pattern: MEMBER_PASSWORD_PATTERN,
      title: '登录密码',
      description: '6–20 letters and digits, at least one of each',
    }),
    nickname: Type.String({ minLength: 1, maxLength: 50, title: '昵称' }),
    inviterUid: Type.Optional(Type.String({ maxLength: 8, title: '邀请人UID', description: 'must exist when given' })),
    zoneId: Type.Optional(IdParam('专区')),
  },
  { additionalProperties: false },
);
export const MemberCreateResult = Ok(Type.Object({ id: Type.Integer(), uid: Type.String() }));

export const MemberOptBody = Type.Object(
  {
    id: IdParam('会员ID'),
    action: StringEnum([...MemberActions], {
      title: '操作',
      description:
        'freeze 1|3→2; unfreeze 2|3→1; banWithdraw 1→3; setLevel {level}; setZone {zoneId}; ' +
        'resetPassword {password?} (a random one is made and returned when omitted); adjust {asset, amount, remark}',
    }),
    level: Type.Optional(MemberLevel),
    zoneId: Type.Optional(IdParam('专区')),
    password: Type.Optional(Type.String({ pattern: MEMBER_PASSWORD_PATTERN, title: '新密码' })),
    asset: Type.Optional(AssetEnum),
    amount: Type.Optional(MoneyString('调整金额')),
    remark: Type.Optional(MultilineText('备注', 200)),
  },
  { additionalProperties: false },
);
export const MemberOptResult = Ok(
  Type.Object({
    id: Type.Integer(),
    status: MemberStatus,
    level: MemberLevel,
    zoneId: NullableInt,
    /** Only for resetPassword: the new password, shown once. */
    password: Type.Optional(Type.String({ description: 'resetPassword only: the new password, shown once' })),
    /** Only for adjust: the account after the change. */
    balance: Type.Optional(
      Type.Object({ asset: Type.String(), available: Type.String(), frozen: Type.String(), billId: Type.Integer() }),
    ),
  }),
);
