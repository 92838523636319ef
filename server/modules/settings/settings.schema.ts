/** 系统设置 and the LZ price (SPEC.md GET/POST setting, price). */
import { Type } from '@sinclair/typebox';
import { SettingGroups as G, SettingLabels as L, SettingLimits } from '../../../domain/platformSettings';
import { MoneyString, MultilineText, Nullable, NullableInt, Ok } from '../../http/schemas';

const Platform = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: SettingLimits.nameMax, title: L.platform.name }) },
  { additionalProperties: false, title: G.platform },
);
const Service = Type.Object(
  {
    wechat: Type.String({ maxLength: SettingLimits.wechatMax, title: L.service.wechat }),
    phone: Type.String({ maxLength: 20, title: L.service.phone }),
  },
  { additionalProperties: false, title: G.service },
);
const Register = Type.Object(
  {
    open: Type.Boolean({ title: L.register.open }),
    inviteReward: MoneyString(L.register.inviteReward),
  },
  { additionalProperties: false, title: G.register },
);
const Price = Type.Object({ lz: MoneyString(L.price.lz) }, { additionalProperties: false, title: G.price });
const App = Type.Object(
  {
    version: Type.String({ maxLength: 20, title: L.app.version }),
    downloadUrl: Type.String({ maxLength: SettingLimits.urlMax, title: L.app.downloadUrl }),
  },
  { additionalProperties: false, title: G.app },
);
const Maintenance = Type.Object(
  {
    on: Type.Boolean({ title: L.maintenance.on }),
    message: MultilineText(L.maintenance.message, SettingLimits.messageMax),
  },
  { additionalProperties: false, title: G.maintenance },
);
const Match = Type.Object(
  {
    payTimeoutMinutes: Type.Integer({
      minimum: SettingLimits.payTimeoutMinutes.min,
      maximum: SettingLimits.payTimeoutMinutes.max,
      title: L.match.payTimeoutMinutes,
    }),
  },
  { additionalProperties: false, title: G.match },
);
const Mall = Type.Object(
  {
    autoCompleteDays: Type.Integer({
      minimum: SettingLimits.autoCompleteDays.min,
      maximum: SettingLimits.autoCompleteDays.max,
      title: L.mall.autoCompleteDays,
    }),
  },
  { additionalProperties: false, title: G.mall },
);

const groups = {
  platform: Platform,
  service: Service,
  register: Register,
  price: Price,
  app: App,
  maintenance: Maintenance,
  match: Match,
  mall: Mall,
};

export const PlatformSettings = Type.Object({
  ...groups,
  updatedAt: NullableInt,
  updatedBy: Type.String(),
});
export const PlatformSettingsResult = Ok(PlatformSettings);

/**
 * Any of the groups, each whole: the page sends the groups the operator changed, with the `updatedAt`
 * it loaded, so a save over another manager's newer one is refused instead of putting back what they
 * changed.
 */
export const PlatformSettingsBody = Type.Object(
  {
    ...Type.Partial(Type.Object(groups)).properties,
    updatedAt: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 2 ** 53 - 1,
        title: '版本',
        description: 'the updatedAt the page loaded (0: never saved); a save over a newer one is refused (409)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const PricePoint = Type.Object({
  date: Type.String({ description: 'YYYY-MM-DD (Asia/Shanghai)' }),
  price: Nullable(Type.String(), {
    description: 'the price at the end of that day; null before the first',
  }),
});
export const PriceResult = Ok(
  Type.Object({
    now: Nullable(Type.String(), { description: 'USDT per LZ; null when never set' }),
    updatedAt: NullableInt,
    updatedBy: Type.String(),
    history: Type.Array(PricePoint, { description: 'the last 30 days, oldest first, today last' }),
  }),
);
