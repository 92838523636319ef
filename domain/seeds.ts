import { defineEnum, type EnumValue } from './enums';

/** Where a seed came from (DOMAIN.md §3 Bills and energy): 1 商城购买, 2 后台赠送, 3 活动奖励. */
export const SeedSource = defineEnum('来源', {
  mall: [1, '商城购买', 'primary'],
  gift: [2, '后台赠送', 'secondary'],
  activity: [3, '活动奖励', 'info'],
});
export type SeedSource = EnumValue<typeof SeedSource>;

/** Seed status: 1 生长中 (releasing energy every day), 2 已成熟 (all released). */
export const SeedStatus = defineEnum('状态', {
  growing: [1, '生长中', 'success'],
  mature: [2, '已成熟', 'default'],
});
export type SeedStatus = EnumValue<typeof SeedStatus>;

/** The longest a seed may grow, in days (the seed table's CHECK). */
export const SEED_MAX_DAYS = 3650;
